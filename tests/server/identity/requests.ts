import { apiPaths } from '../../../contract/paths.ts';
import type { TokenResponse } from '../../../contract/schemas/identity.ts';
import { ADDRESS_POLICY } from '../../../server/identity/throttle.ts';
import type { TestApp, TestUser } from '../test-app.ts';

/** Requests the way the console makes them, for the identity and profile suites. */

export interface RequestOptions {
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

function headersFor({ token, cookie, headers }: RequestOptions, json: boolean): Record<string, string> {
  return {
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...(cookie ? { Cookie: cookie } : {}),
    ...headers,
  };
}

export async function sendJson(
  harness: TestApp,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  return harness.app.request(path, {
    method,
    headers: headersFor(options, true),
    body: JSON.stringify(body),
  });
}

export async function send(
  harness: TestApp,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: RequestOptions = {},
): Promise<Response> {
  return harness.app.request(path, { method, headers: headersFor(options, false) });
}

/** `name=value` of the refresh cookie a response sets, ready for a Cookie header. */
export function refreshCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((header) => header.includes('refresh_token='));
  if (!cookie) throw new Error('The response sets no refresh cookie.');
  return cookie.split(';')[0] ?? '';
}

export interface SignedIn {
  accessToken: string;
  cookie: string;
}

export async function signIn(
  harness: TestApp,
  user: TestUser,
  options: RequestOptions = {},
): Promise<SignedIn> {
  const response = await sendJson(
    harness,
    'POST',
    apiPaths.identity.login,
    { username: user.userName, password: user.password },
    options,
  );
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}.`);
  const body = (await response.json()) as TokenResponse;
  return { accessToken: body.access_token, cookie: refreshCookieOf(response) };
}

/**
 * Sends failed sign-ins with made-up user names from `options`' address until its ceiling blocks it
 * (decision 005), and fails the test unless sign-in from it then answers 429: other people's wrong
 * guesses, for the suites that check a correct credential elsewhere still works.
 */
export async function blockSignInAddress(harness: TestApp, options: RequestOptions = {}): Promise<void> {
  const attempt = (index: number) =>
    sendJson(
      harness,
      'POST',
      apiPaths.identity.login,
      { username: `guess-${index}-${crypto.randomUUID()}`, password: 'Wrong-Password-1' },
      options,
    );
  for (let index = 0; index < ADDRESS_POLICY.maxFailures; index++) await attempt(index);
  const refused = await attempt(ADDRESS_POLICY.maxFailures);
  if (refused.status !== 429) throw new Error(`Sign-in was not blocked: ${refused.status}.`);
}
