import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { isSecureRequest } from '../http/client-address.ts';
import { hashOpaqueToken, isOpaqueToken, newOpaqueToken } from '../identity/opaque-tokens.ts';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; decision 005): a
 * successful sign-in leaves the browser a random token bound to that user, and a later attempt that
 * presents it is judged as the user's known device, so the blocks that anyone sharing an address can
 * set off (50 failures from one address, a proxy everybody comes through) do not keep the user out.
 *
 * The cookie is HttpOnly, SameSite=Strict and sent only to the sign-in endpoint; under HTTPS it is
 * Secure with the `__Secure-` prefix. It holds the tokens of the last few users of one browser,
 * newest first, separated by dots. Trust slides: each sign-in from the device renews it.
 */
const COOKIE_NAME = 'trusted_device';
const SECURE_COOKIE_NAME = `__Secure-${COOKIE_NAME}`;
/** Users who share one browser (a family computer, a kiosk) each keep their device. */
const TOKENS_PER_BROWSER = 5;
/** Kept per user; older devices are forgotten, so a script signing in over and over cannot grow the table. */
const DEVICES_PER_USER = 20;
export const DEVICE_TRUST_DAYS = 90;
const DEVICE_TRUST_MS = DEVICE_TRUST_DAYS * 24 * 3600 * 1000;

type ProxyConfig = Pick<ServerConfig, 'trustProxy'>;

/** A device the browser proved: its token (for the cookie) and its id (for the throttle's counter). */
export interface TrustedDevice {
  token: string;
  /** The token's hash: names the device in the throttle without the secret itself. */
  id: string;
  userId: string;
}

function cookieName(c: Context, config: ProxyConfig): string {
  return isSecureRequest(c, config) ? SECURE_COOKIE_NAME : COOKIE_NAME;
}

/** The well-formed tokens the browser sent, at most as many as a browser keeps. */
function presentedTokens(c: Context, config: ProxyConfig): string[] {
  const value = getCookie(c, cookieName(c, config)) ?? '';
  return [...new Set(value.split('.').filter(isOpaqueToken))].slice(0, TOKENS_PER_BROWSER);
}

/** The browser's devices still trusted, in the cookie's order; forged or expired tokens drop out. */
export async function presentedDevices(
  db: Kysely<Database>,
  c: Context,
  config: ProxyConfig,
  now: Date,
): Promise<TrustedDevice[]> {
  const tokens = presentedTokens(c, config);
  if (tokens.length === 0) return [];
  const byHash = new Map(tokens.map((token) => [hashOpaqueToken(token), token]));
  const rows = await db
    .selectFrom('trusted_devices')
    .select(['token_hash', 'user_id'])
    .where('token_hash', 'in', [...byHash.keys()])
    .where('expires_at', '>', now)
    .execute();
  const userOf = new Map(rows.map((row) => [row.token_hash, row.user_id]));
  return [...byHash].flatMap(([id, token]) => {
    const userId = userOf.get(id);
    return userId === undefined ? [] : [{ token, id, userId }];
  });
}

/**
 * After a successful sign-in: renews the device the browser proved for this user, or trusts the
 * browser as a new one, and answers the cookie's new content (this user's token first).
 */
export async function trustDevice(
  db: Kysely<Database>,
  userId: string,
  devices: readonly TrustedDevice[],
  now: Date,
): Promise<string[]> {
  const expiresAt = new Date(now.getTime() + DEVICE_TRUST_MS);
  const known = devices.find((device) => device.userId === userId);
  let token: string;
  if (known) {
    token = known.token;
    await db
      .updateTable('trusted_devices')
      .set({ expires_at: expiresAt })
      .where('token_hash', '=', known.id)
      .execute();
  } else {
    token = newOpaqueToken();
    await db
      .insertInto('trusted_devices')
      .values({ token_hash: hashOpaqueToken(token), user_id: userId, created_at: now, expires_at: expiresAt })
      .execute();
    await forgetOldDevices(db, userId, now);
  }
  const others = devices.filter((device) => device.userId !== userId).map((device) => device.token);
  return [token, ...others].slice(0, TOKENS_PER_BROWSER);
}

/** Drops the user's expired devices and all but the newest `DEVICES_PER_USER`. */
async function forgetOldDevices(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  const kept = db
    .selectFrom('trusted_devices')
    .select('token_hash')
    .where('user_id', '=', userId)
    .orderBy('expires_at', 'desc')
    .limit(DEVICES_PER_USER);
  await db
    .deleteFrom('trusted_devices')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('token_hash', 'not in', kept)]))
    .execute();
}

export function setDeviceCookie(c: Context, config: ProxyConfig, tokens: readonly string[]): void {
  setCookie(c, cookieName(c, config), tokens.join('.'), {
    httpOnly: true,
    sameSite: 'Strict',
    path: apiPaths.identity.login,
    secure: isSecureRequest(c, config),
    maxAge: DEVICE_TRUST_DAYS * 24 * 3600,
  });
}
