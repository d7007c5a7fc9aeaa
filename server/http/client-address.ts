import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { ServerConfig } from '../config.ts';

type ProxyConfig = Pick<ServerConfig, 'trustProxy'>;

function peerAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    // `app.request()` in tests and other non-Node transports have no socket.
    return null;
  }
}

/** Whether the request came through a proxy whose forwarded headers are believed. */
function fromTrustedProxy(c: Context, config: ProxyConfig): boolean {
  if (config.trustProxy === true) return true;
  return config.trustProxy !== false && config.trustProxy.includes(peerAddress(c));
}

/**
 * The address of the client, for audit events and throttling. X-Forwarded-For is honoured only
 * from a configured proxy (decision 031): anyone can send the header, and trusting it would let a
 * caller choose the address its failures are counted against. From the listed proxies the chain is
 * read right to left past them; with `TRUST_PROXY=true` the right-most entry, which the nearest proxy
 * appended, is taken, as before proxies could be named.
 */
export function clientAddress(c: Context, config: ProxyConfig): string | null {
  const forwarded = c.req.header('X-Forwarded-For');
  if (config.trustProxy === true) {
    const nearest = forwarded?.split(',').at(-1)?.trim();
    return nearest || peerAddress(c);
  }
  if (config.trustProxy === false) return peerAddress(c);
  return config.trustProxy.clientOf(peerAddress(c), forwarded);
}

/** HTTPS as the browser saw it: from a trusted proxy, the proxy's X-Forwarded-Proto says so. */
export function isSecureRequest(c: Context, config: ProxyConfig): boolean {
  if (fromTrustedProxy(c, config)) {
    const forwarded = c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === 'https';
  }
  return new URL(c.req.url).protocol === 'https:';
}

/**
 * Says once, in the log, that requests arrive with X-Forwarded-For from a peer TRUST_PROXY does not
 * name: behind a proxy the server does not trust, every client shares the proxy's address, so one
 * guesser's failures are counted against everyone, and HTTPS behind the proxy goes unrecognised. The
 * operator names the proxy in TRUST_PROXY when it is theirs. Once per process, so a caller sending
 * the header cannot flood the log; the peer's address is not logged.
 */
export function warnOfUntrustedProxy(config: ProxyConfig): MiddlewareHandler {
  let warned = config.trustProxy === true;
  return async (c, next) => {
    if (!warned && c.req.header('X-Forwarded-For') !== undefined && !fromTrustedProxy(c, config)) {
      warned = true;
      console.warn(
        'Requests arrive with X-Forwarded-For from a peer TRUST_PROXY does not name: every client is ' +
          "counted under the proxy's address. Set TRUST_PROXY to the proxy's addresses or CIDR ranges " +
          '(e.g. TRUST_PROXY=10.0.0.5) if it is yours.',
      );
    }
    await next();
  };
}
