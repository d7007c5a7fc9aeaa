import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import * as v from 'valibot';
import {
  type ClientToolList,
  clientToolFileParamsSchema,
  clientToolListSchema,
} from '../../contract/schemas/client-tools.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { type Catalogue, createCatalogue } from './catalogue.ts';

/** Media types of the package formats tools come in; anything else is plain bytes. */
const MEDIA_TYPES: readonly [suffix: string, type: string][] = [
  ['.tar.gz', 'application/gzip'],
  ['.tgz', 'application/gzip'],
  ['.zip', 'application/zip'],
  ['.msi', 'application/x-msi'],
  ['.exe', 'application/vnd.microsoft.portable-executable'],
  ['.dmg', 'application/x-apple-diskimage'],
  ['.pkg', 'application/vnd.apple.installer+xml'],
  ['.deb', 'application/vnd.debian.binary-package'],
  ['.rpm', 'application/x-rpm'],
];

export function mediaTypeOf(name: string): string {
  const lower = name.toLowerCase();
  return MEDIA_TYPES.find(([suffix]) => lower.endsWith(suffix))?.[1] ?? 'application/octet-stream';
}

function notFound(): ApiError {
  return new ApiError(404, 'Client tool file not found.');
}

/**
 * The client-tools catalogue (overview §3): public, with no session, since the public enrollment
 * page's install prompt links to it. It names files and their hashes, nothing else.
 */
export function clientToolRoutes(
  deps: Pick<AppDeps, 'config'>,
  catalogue: Catalogue = createCatalogue({
    directory: deps.config.clientToolsDir,
    publicUrl: deps.config.publicUrl,
  }),
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/client-tools',
    describeOperation({
      tag: 'Client tools',
      summary:
        'Public: the client-tools catalogue, the trust assistant for each operating system and the tools an operator placed in the catalogue directory, with the files present and the SHA-1 and SHA-256 the server computed from them.',
      success: { status: 200, description: 'Client tools', schema: clientToolListSchema },
      failures: [],
    }),
    async (c) => {
      const items = await catalogue.list();
      const body: ClientToolList = { items, total: items.length };
      return c.json(body);
    },
  );

  app.get(
    '/client-tools/:id/:folder/:name',
    describeOperation({
      tag: 'Client tools',
      summary:
        'Public: one file of the catalogue, as an attachment; ETag its SHA-256 (If-None-Match answers 304), cached as immutable. Only names the catalogue lists are served; anything else is 404.',
      success: { status: 200, description: 'The file', binary: 'application/octet-stream' },
      failures: [404],
    }),
    async (c) => {
      // Anything but a name the scan found is 404, malformed names included: no path is built from input.
      const params = v.safeParse(clientToolFileParamsSchema, c.req.param());
      if (!params.success) throw notFound();
      const { id, folder, name } = params.output;
      const file = await catalogue.file(id, folder, name);
      if (file === null) throw notFound();
      const etag = `"${file.sha256}"`;
      // A version's file never changes under its address: the packages are reproducible, and an
      // operator publishes a new version under a new folder.
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      c.header('ETag', etag);
      if (
        c.req
          .header('If-None-Match')
          ?.split(/\s*,\s*/)
          .includes(etag)
      )
        return c.body(null, 304);
      c.header('Content-Type', mediaTypeOf(file.name));
      c.header('Content-Length', String(file.size));
      c.header('Content-Disposition', `attachment; filename="${file.name}"`);
      // No file is opened for an answer that has no body.
      if (c.req.method === 'HEAD') return c.body(null);
      const stream = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
      return c.body(stream);
    },
  );

  return app;
}
