import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Context, Hono } from 'hono';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH, isApiPath } from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';
import type { AppEnv } from './app-env.ts';
import { CONTENT_CODINGS, type ContentCoding, negotiateContentCoding } from './compression.ts';
import { consolePagePolicy, OFFLINE_PAGE_PATH, offlinePagePolicy } from './security-headers.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite names files under assets/ by content hash, so they never change; everything else may. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const ASSETS_PREFIX = `${CONSOLE_BASE_PATH}/assets/`;

/** The file under `root` a request path names, or null when the path tries to leave `root`. */
function fileUnder(root: string, requestPath: string): string | null {
  let relative: string;
  try {
    relative = decodeURIComponent(requestPath.slice(CONSOLE_BASE_PATH.length));
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const file = path.resolve(root, `.${relative}`);
  // The base itself (`/account/`) is the root directory: no file, so the page.
  return file === root || file.startsWith(`${root}${path.sep}`) ? file : null;
}

async function fileStats(file: string): Promise<Stats | null> {
  try {
    const stats = await stat(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

async function isFile(file: string): Promise<boolean> {
  return (await fileStats(file)) !== null;
}

/** The copies the build compresses beside each text file (vite.config.ts, `precompress`). */
const PRECOMPRESSED_SUFFIX: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Answers a built file, as the build's brotli or gzip copy when one exists, is not older than the
 * file, and the client accepts it (brotli first). Vary is set on every file that has a copy, so a cache keeps the codings apart;
 * files the build left as they are (images, fonts, tiny files) are the same for every client.
 */
async function sendFile(
  c: Context<AppEnv>,
  file: string,
  headers: Record<string, string>,
  rawContent?: Buffer,
): Promise<Response> {
  const original = await fileStats(file);
  // A copy older than its file was left by an earlier build (or the file was changed in place since):
  // it would send the old content, so the file goes as it is instead.
  const copies = (
    await Promise.all(
      CONTENT_CODINGS.map(async (coding) => {
        const copy = await fileStats(`${file}${PRECOMPRESSED_SUFFIX[coding]}`);
        return copy && original && copy.mtimeMs >= original.mtimeMs ? coding : null;
      }),
    )
  ).filter((coding) => coding !== null);
  const coding = negotiateContentCoding(c.req.header('Accept-Encoding'), copies);
  const content = coding
    ? await readFile(`${file}${PRECOMPRESSED_SUFFIX[coding]}`)
    : (rawContent ?? (await readFile(file)));
  return c.body(new Uint8Array(content), 200, {
    'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    ...headers,
    ...(copies.length > 0 ? { Vary: 'Accept-Encoding' } : {}),
    ...(coding ? { 'Content-Encoding': coding } : {}),
  });
}

/**
 * index.html, as every console address and as itself (the service worker caches it by that name),
 * with the policy that names the hashes of its inline style and script, read from the page itself.
 */
async function sendConsolePage(c: Context<AppEnv>, indexFile: string): Promise<Response> {
  const content = await readFile(indexFile);
  return sendFile(
    c,
    indexFile,
    { 'Cache-Control': REVALIDATE, 'Content-Security-Policy': consolePagePolicy(content.toString('utf8')) },
    content,
  );
}

/**
 * Serves the built console under the base path: files as they are (or their precompressed copies),
 * and index.html for every other
 * console route (the client router takes it from there). A missing file under assets/ stays a 404:
 * answering HTML for a stale script name would only break the page in a harder-to-read way.
 */
export function consoleRoutes(config: Pick<ServerConfig, 'consoleDistDir'>): Hono<AppEnv> {
  const root = path.resolve(config.consoleDistDir);
  const indexFile = path.join(root, 'index.html');
  const app = new Hono<AppEnv>();

  // The console's own base (`/account/`, the installed app's start) is a page like any other: the
  // client router leads it to the accounts list, so the typed address costs no extra round trip.
  for (const bare of ['/', CONSOLE_BASE_PATH]) {
    app.get(bare, (c) => c.redirect(ACCOUNTS_LIST_PATH, 302));
  }

  app.on(['GET', 'HEAD'], `${CONSOLE_BASE_PATH}/*`, async (c, next) => {
    if (isApiPath(c.req.path)) return next();
    const file = fileUnder(root, c.req.path);
    if (file === null) return c.text('Not found.', 404);

    if (await isFile(file)) {
      const immutable = c.req.path.startsWith(ASSETS_PREFIX);
      // sw.js, the manifest and the offline page are revalidated like every unhashed file, so a new
      // build's worker is found on the next check.
      const headers: Record<string, string> = { 'Cache-Control': immutable ? IMMUTABLE : REVALIDATE };
      if (file === indexFile) return sendConsolePage(c, indexFile);
      if (c.req.path !== OFFLINE_PAGE_PATH) return sendFile(c, file, headers);
      // The offline page's policy names the hash of its inline style, read from the page itself.
      const content = await readFile(file);
      headers['Content-Security-Policy'] = offlinePagePolicy(content.toString('utf8'));
      return sendFile(c, file, headers, content);
    }
    if (c.req.path.startsWith(ASSETS_PREFIX)) return c.text('Not found.', 404);
    if (!(await isFile(indexFile))) {
      return c.text(
        'The console is not built yet: run `npm run build` (or `npm start`, which builds it).',
        503,
      );
    }
    return sendConsolePage(c, indexFile);
  });
  return app;
}
