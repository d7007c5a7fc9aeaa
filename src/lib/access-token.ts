/**
 * The access token lives only in this module's memory: never in storage a script could read later,
 * so a reload starts from the HttpOnly refresh cookie instead.
 */
interface AccessToken {
  value: string;
  /** Epoch milliseconds; plain numbers keep the date library out of the sign-in page's bundle. */
  expiresAt: number;
}

let current: AccessToken | null = null;

export function setAccessToken(value: string, expiresAt: number): void {
  current = { value, expiresAt };
}

export function getAccessToken(): string | null {
  return current?.value ?? null;
}

export function clearAccessToken(): void {
  current = null;
}
