import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { apiPaths } from '../../contract/paths.ts';
import { SESSION_HINT_COOKIE } from '../../contract/schemas/identity.ts';
import type { ServerConfig } from '../config.ts';
import { isSecureRequest } from '../http/client-address.ts';
import type { IssuedRefreshToken } from '../identity/sessions.ts';

/**
 * The refresh token's cookie (docs/decisions/003-sessions-and-tokens.md): HttpOnly so page scripts
 * never see it, SameSite=Strict so no other site can send it, and scoped to the refresh path so no
 * other request carries it. Under HTTPS it is Secure with the `__Secure-` prefix, which browsers
 * refuse to accept from plain HTTP.
 */
const COOKIE_NAME = 'refresh_token';

type ProxyConfig = Pick<ServerConfig, 'trustProxy'>;

function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'Strict', path: apiPaths.identity.refresh, secure } as const;
}

/** The hint that a refresh cookie exists: readable by the console's pages, so not HttpOnly. */
function hintOptions(secure: boolean) {
  return { httpOnly: false, sameSite: 'Strict', path: '/', secure } as const;
}

const cookieName = (name: string, secure: boolean) => (secure ? `__Secure-${name}` : name);

export function setRefreshCookie(
  c: Context,
  config: ProxyConfig,
  refreshToken: IssuedRefreshToken,
  now: Date,
): void {
  const secure = isSecureRequest(c, config);
  const maxAge = Math.max(0, Math.round((refreshToken.expiresAt.getTime() - now.getTime()) / 1000));
  setCookie(c, cookieName(COOKIE_NAME, secure), refreshToken.token, {
    ...cookieOptions(secure),
    maxAge,
  });
  setCookie(c, cookieName(SESSION_HINT_COOKIE, secure), '1', { ...hintOptions(secure), maxAge });
}

export function readRefreshCookie(c: Context, config: ProxyConfig): string | undefined {
  return getCookie(c, cookieName(COOKIE_NAME, isSecureRequest(c, config)));
}

export function clearRefreshCookie(c: Context, config: ProxyConfig): void {
  const secure = isSecureRequest(c, config);
  deleteCookie(c, cookieName(COOKIE_NAME, secure), cookieOptions(secure));
  deleteCookie(c, cookieName(SESSION_HINT_COOKIE, secure), hintOptions(secure));
}
