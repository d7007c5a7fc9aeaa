import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import type { AppEnv } from '../http/app-env.ts';
import { negotiateContentCoding, varyOnAcceptEncoding } from '../http/compression.ts';

/**
 * Scalar's standalone bundle: the renderer, its styles and its search in one script, served from
 * node_modules by this server, so the page loads nothing from another origin (decision 034).
 */
const RENDERER_FILE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser',
  'standalone.js',
);

/** The script that starts the renderer on the page, with both documents in its document list. */
export const REFERENCE_SCRIPT_PATH = `${apiPaths.apiReference}/reference.js`;

const REFERENCE_CONFIGURATION = {
  sources: [
    { title: 'Public API', slug: 'public', url: apiPaths.openApi, default: true },
    { title: 'Console API (internal)', slug: 'console', url: apiPaths.consoleOpenApi },
  ],
  // Each of these would reach Scalar's own services (fonts, AI agent, MCP, telemetry, request proxy):
  // the page talks to this origin only.
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  documentDownloadType: 'json',
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'bearer' },
};

/**
 * Examples and test requests name the origin the page was opened on, which serves both documents,
 * rather than the documents' PUBLIC_URL: the policy lets the page connect to its own origin only.
 */
export const REFERENCE_SCRIPT = `Scalar.createApiReference('#reference', { ...${JSON.stringify(REFERENCE_CONFIGURATION)}, servers: [{ url: location.origin }] });\n`;

interface Renderer {
  /** Under the reference page and named by its content, so it is cached for good. */
  path: string;
  bytes: Buffer;
  coded: Record<'br' | 'gzip', Promise<Buffer>>;
}

let renderer: Promise<Renderer> | undefined;

/**
 * The bundle is 4.8 MB as it is: compressed once, in the thread pool, when first asked for (brotli at
 * quality 9 takes about 0.7 s and leaves 1.2 MB; quality 11 would take 9 s for a tenth less).
 */
function loadRenderer(): Promise<Renderer> {
  renderer ??= readFile(RENDERER_FILE).then((bytes) => {
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    return {
      path: `${apiPaths.apiReference}/scalar-${hash}.js`,
      bytes,
      coded: {
        br: promisify(brotliCompress)(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 9,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        }),
        gzip: promisify(gzip)(bytes, { level: 9 }),
      },
    };
  });
  return renderer;
}

/** Answers the renderer at its hashed path; any other name under the page is not found. */
export async function sendRenderer(c: Context<AppEnv>): Promise<Response> {
  const { path: rendererPath, bytes, coded } = await loadRenderer();
  if (c.req.path !== rendererPath) return c.notFound();
  const coding = negotiateContentCoding(c.req.header('Accept-Encoding'));
  const body = coding ? await coded[coding] : bytes;
  const response = c.body(new Uint8Array(body), 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
    ...(coding ? { 'Content-Encoding': coding } : {}),
  });
  varyOnAcceptEncoding(response.headers);
  return response;
}

/**
 * The page's own policy, stricter than the console's but for inline styles. Scalar makes three
 * `<style>` elements at run time: its stylesheet takes a nonce (from `meta[property=csp-nonce]`), but
 * the theme, written by its head manager, and the toasts' styles take none, so a nonce alone leaves
 * the page without its colours. Inline styles are allowed on this one path (security-headers.ts lets
 * it keep its policy): the page shows the platform's own documents, and scripts stay same-origin
 * files, so no injected markup can run code or reach another origin (decision 034).
 */
export const REFERENCE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** The reference page: the renderer and the script that starts it on both documents. */
export async function sendReferencePage(c: Context<AppEnv>): Promise<Response> {
  const { path: rendererPath } = await loadRenderer();
  c.header('Content-Security-Policy', REFERENCE_PAGE_POLICY);
  return c.html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Trust platform API reference</title>
</head>
<body>
<div id="reference"></div>
<noscript>The reference needs JavaScript. The OpenAPI documents: <a href="${apiPaths.openApi}">public API</a>, <a href="${apiPaths.consoleOpenApi}">console API</a>.</noscript>
<script src="${rendererPath}"></script>
<script src="${REFERENCE_SCRIPT_PATH}"></script>
</body>
</html>
`);
}
