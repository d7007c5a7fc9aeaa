import type { Temporal } from 'temporal-polyfill';

/**
 * The access token lives only in this module's memory: never in storage a script could read later,
 * so a reload starts from the HttpOnly refresh cookie instead.
 */
interface AccessToken {
  value: string;
  expiresAt: Temporal.Instant;
}

let current: AccessToken | null = null;

export function setAccessToken(value: string, expiresAt: Temporal.Instant): void {
  current = { value, expiresAt };
}

export function getAccessToken(): string | null {
  return current?.value ?? null;
}

export function getAccessTokenExpiry(): Temporal.Instant | null {
  return current?.expiresAt ?? null;
}

export function clearAccessToken(): void {
  current = null;
}
