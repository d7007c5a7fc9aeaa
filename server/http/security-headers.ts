import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { DESKTOP_CLIENT_PORT, TRUST_AGENT_PORT } from '../../contract/constants.ts';
import {
  apiPaths,
  CONSOLE_BASE_PATH,
  isApiPath,
  isCaPublicationPath,
  isClientToolDownloadPath,
} from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';
import { isSecureRequest } from './client-address.ts';

/**
 * No inline scripts or styles but the console page's, allowed by their hashes (`consolePagePolicy`),
 * and the API reference's styles (`REFERENCE_PAGE_POLICY`, that page only); `style-src-attr` allows
 * the `style` attributes React sets for dynamic sizes. The console talks to the trust agent and the
 * desktop client on their loopback ports, so those origins are the exceptions to `connect-src 'self'`.
 */
const LOCAL_HELPERS = [TRUST_AGENT_PORT, DESKTOP_CLIENT_PORT]
  .flatMap((port) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`])
  .join(' ');

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  `connect-src 'self' ${LOCAL_HELPERS}`,
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** The page the service worker shows when the console is offline and not saved yet (public/offline.html). */
export const OFFLINE_PAGE_PATH = `${CONSOLE_BASE_PATH}/offline.html`;

/** The CSP source that allows the inline blocks `tag` holds in `html` (`<style>`, `<script>` without `src`), by their hashes. */
function inlineHashes(html: string, tag: 'style' | 'script'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    ([, text = '']) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`,
  );
}

/**
 * The console's page (index.html) carries its first stylesheet inline and runs one inline script
 * before its modules, the one that shows the sign-in preview
 * (src/features/session/sign-in-preview-script.ts, decision 029): each allowed by its hash, read from
 * the page itself, and no other inline style or script is.
 */
export function consolePagePolicy(html: string): string {
  return CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'",
    ["script-src 'self'", ...inlineHashes(html, 'script')].join(' '),
  ).replace("style-src 'self'", ["style-src 'self'", ...inlineHashes(html, 'style')].join(' '));
}

/**
 * The offline page is static HTML that must render with nothing but itself (no script runs there),
 * so its one inline style block is allowed by its hash, and nothing else is.
 */
export function offlinePagePolicy(html: string): string {
  const styles = inlineHashes(html, 'style');
  return [
    "default-src 'none'",
    `style-src ${styles.length > 0 ? styles.join(' ') : "'none'"}`,
    "img-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * A year of HTTPS only, for this host and its subdomains. Sent only on answers that travelled over
 * HTTPS (directly, or to a trusted TLS proxy): browsers ignore it over plain HTTP, and a console
 * served on plain HTTP for local use must stay reachable.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every response; API answers are never cached by browsers or proxies, but for
 * the public CA certificates and CRLs and the client-tool downloads. The console's pages bring
 * policies of their own: the offline page a stricter one (`offlinePagePolicy`), index.html this one
 * with the hashes of its inline style and script (`consolePagePolicy`).
 */
const REFERENCE_RENDERER_PATH = new RegExp(`^${apiPaths.apiReference}/scalar-[0-9a-f]{16}\\.js$`);

function isReferenceRendererPath(path: string): boolean {
  return REFERENCE_RENDERER_PATH.test(path);
}

export const securityHeaders =
  (config: Pick<ServerConfig, 'trustProxy'>): MiddlewareHandler =>
  async (c, next) => {
    await next();
    const headers = c.res.headers;
    // The API reference page is the one API path with a policy of its own: its renderer writes
    // inline styles (server/openapi/reference-page.ts, decision 034).
    const ownsPolicy = !isApiPath(c.req.path) || c.req.path === apiPaths.apiReference;
    const ownPolicy = ownsPolicy ? headers.get('Content-Security-Policy') : null;
    headers.set('Content-Security-Policy', ownPolicy ?? CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    // CA certificates and CRLs are published for caching (decision 019), and so are client-tool
    // downloads, revalidated by their ETag (304); a refusal of them is not.
    // So is the reference page's renderer, named by its content.
    const publication =
      (c.res.status === 200 && (isCaPublicationPath(c.req.path) || isReferenceRendererPath(c.req.path))) ||
      ([200, 304].includes(c.res.status) && isClientToolDownloadPath(c.req.path));
    if (isApiPath(c.req.path) && !publication) headers.set('Cache-Control', 'no-store');
    if (isSecureRequest(c, config)) headers.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  };
