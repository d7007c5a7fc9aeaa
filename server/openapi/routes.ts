import { Hono } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import type { AppEnv } from '../http/app-env.ts';
import { buildOpenApiDocument } from './document.ts';
import { REFERENCE_STYLESHEET, renderReferencePage } from './reference-page.ts';

const STYLESHEET_PATH = `${apiPaths.apiReference}.css`;

/** The OpenAPI document and its HTML reference, both public and both built once at start. */
export function openApiRoutes(): Hono<AppEnv> {
  const document = buildOpenApiDocument();
  const page = renderReferencePage(document, STYLESHEET_PATH, apiPaths.openApi);
  return new Hono<AppEnv>()
    .get(apiPaths.openApi, (c) => c.json(document))
    .get(apiPaths.apiReference, (c) => c.html(page))
    .get(STYLESHEET_PATH, (c) =>
      c.body(REFERENCE_STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8' }),
    );
}
