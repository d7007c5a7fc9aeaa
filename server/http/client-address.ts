import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { ServerConfig } from '../config.ts';

/**
 * The address of the client, for audit events and sign-in throttling. X-Forwarded-For is honoured
 * only behind a configured proxy: anyone can send the header, and trusting it would let a caller
 * choose the address its failed sign-ins are counted against. Behind the proxy, the right-most
 * entry is the one the proxy itself appended, so it is the one that cannot be forged.
 */
export function clientAddress(c: Context, config: Pick<ServerConfig, 'trustProxy'>): string | null {
  if (config.trustProxy) {
    const forwarded = c.req.header('X-Forwarded-For');
    const nearest = forwarded?.split(',').at(-1)?.trim();
    if (nearest) return nearest;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // `app.request()` in tests and other non-Node transports have no socket.
    return null;
  }
}

/** HTTPS as the browser saw it: behind a trusted proxy, the proxy's X-Forwarded-Proto says so. */
export function isSecureRequest(c: Context, config: Pick<ServerConfig, 'trustProxy'>): boolean {
  if (config.trustProxy) {
    const forwarded = c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === 'https';
  }
  return new URL(c.req.url).protocol === 'https:';
}

/**
 * Says once, in the log, that requests arrive through a proxy the server does not trust: every
 * client then shares the proxy's address, so one guesser's failed sign-ins are counted against
 * everyone, and HTTPS behind the proxy goes unrecognised. The operator sets `TRUST_PROXY=true` when the
 * proxy is theirs. Once per process, so a caller sending the header cannot flood the log.
 */
export function warnOfUntrustedProxy(config: Pick<ServerConfig, 'trustProxy'>): MiddlewareHandler {
  let warned = config.trustProxy;
  return async (c, next) => {
    if (!warned && c.req.header('X-Forwarded-For') !== undefined) {
      warned = true;
      console.warn(
        'Requests arrive with X-Forwarded-For while TRUST_PROXY is off: every client is counted under the ' +
          "proxy's address. Set TRUST_PROXY=true if the proxy in front of this server is yours.",
      );
    }
    await next();
  };
}
