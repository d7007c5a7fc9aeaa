import type { MiddlewareHandler } from 'hono';
import { TRUST_AGENT_PORT } from '../../contract/constants.ts';
import { isApiPath } from './errors.ts';

/**
 * No inline scripts or styles anywhere (the API reference page included); `style-src-attr` allows
 * the `style` attributes React sets for dynamic sizes. The console talks to the trust agent on the
 * loopback port, so that origin is the one exception to `connect-src 'self'`.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  `connect-src 'self' http://127.0.0.1:${TRUST_AGENT_PORT} http://localhost:${TRUST_AGENT_PORT}`,
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Security headers on every response; API answers are never cached by browsers or proxies. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  if (isApiPath(c.req.path)) headers.set('Cache-Control', 'no-store');
};
