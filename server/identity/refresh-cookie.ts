import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { apiPaths } from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';
import { isSecureRequest } from '../http/client-address.ts';
import type { IssuedRefreshToken } from './sessions.ts';

/**
 * The refresh token's cookie (docs/decisions/003-sessions-and-tokens.md): HttpOnly so page scripts
 * never see it, SameSite=Strict so no other site can send it, and scoped to the refresh path so no
 * other request carries it. Under HTTPS it is Secure with the `__Secure-` prefix, which browsers
 * refuse to accept from plain HTTP.
 */
const COOKIE_NAME = 'refresh_token';
const SECURE_COOKIE_NAME = `__Secure-${COOKIE_NAME}`;

type ProxyConfig = Pick<ServerConfig, 'trustProxy'>;

function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'Strict', path: apiPaths.identity.refresh, secure } as const;
}

export function setRefreshCookie(
  c: Context,
  config: ProxyConfig,
  refreshToken: IssuedRefreshToken,
  now: Date,
): void {
  const secure = isSecureRequest(c, config);
  const maxAge = Math.max(0, Math.round((refreshToken.expiresAt.getTime() - now.getTime()) / 1000));
  setCookie(c, secure ? SECURE_COOKIE_NAME : COOKIE_NAME, refreshToken.token, {
    ...cookieOptions(secure),
    maxAge,
  });
}

export function readRefreshCookie(c: Context, config: ProxyConfig): string | undefined {
  return getCookie(c, isSecureRequest(c, config) ? SECURE_COOKIE_NAME : COOKIE_NAME);
}

export function clearRefreshCookie(c: Context, config: ProxyConfig): void {
  const secure = isSecureRequest(c, config);
  deleteCookie(c, secure ? SECURE_COOKIE_NAME : COOKIE_NAME, cookieOptions(secure));
}
