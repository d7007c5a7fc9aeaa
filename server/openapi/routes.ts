import { Hono } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { buildOpenApiDocuments } from './document.ts';
import {
  REFERENCE_SCRIPT,
  REFERENCE_SCRIPT_PATH,
  sendReferencePage,
  sendRenderer,
} from './reference-page.ts';

/**
 * The two OpenAPI documents and their reference page, all public. The documents are generated from
 * `app`'s routes when first asked for, once every route is registered.
 */
export function openApiRoutes(app: Hono<AppEnv>, publicUrl: string): Hono<AppEnv> {
  let documents: ReturnType<typeof buildOpenApiDocuments> | undefined;
  const built = () => {
    documents ??= buildOpenApiDocuments(app, publicUrl);
    return documents;
  };
  return new Hono<AppEnv>()
    .get(
      apiPaths.openApi,
      describeOperation({
        tag: 'Reference',
        summary: 'This document: the public API.',
        success: { status: 200, description: 'OpenAPI 3.1 document' },
        failures: [],
      }),
      async (c) => c.json((await built()).public),
    )
    .get(
      apiPaths.consoleOpenApi,
      describeOperation({
        tag: 'Reference',
        summary: "This document: the console's own API.",
        success: { status: 200, description: 'OpenAPI 3.1 document' },
        failures: [],
      }),
      async (c) => c.json((await built()).console),
    )
    .get(apiPaths.apiReference, sendReferencePage)
    .get(REFERENCE_SCRIPT_PATH, (c) =>
      c.body(REFERENCE_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
    )
    .get(`${apiPaths.apiReference}/:file`, sendRenderer);
}
