import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorBody } from '../../../contract/schemas/common.ts';
import {
  decodeSignInState,
  encodeSignInState,
  SESSION_HINT_COOKIE,
} from '../../../contract/schemas/identity.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { isSecureRequest } from '../../../server/http/client-address.ts';
import { PAIR_POLICY } from '../../../server/identity/throttle.ts';
import { fieldError } from '../errors.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import { refreshCookieOf, send, sendJson, signIn } from './requests.ts';

describe('signing in, refreshing and signing out', () => {
  let harness: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    harness = await createTestApp({ config: { trustProxy: true } });
    user = await harness.createUser({ accessScope: 'system', userName: 'Grace.Hopper' });
  });
  afterAll(() => harness.close());

  const auditEvents = (action: string) =>
    harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', action)
      .orderBy('seq')
      .execute();

  it('answers the username step the same way for known and unknown users, keeping the return path', async () => {
    const incoming = encodeSignInState({ return_path: '/account/users', error: 'username_not_found' });
    const answers = await Promise.all(
      [user.userName, 'nobody-here'].map(async (username) => {
        const response = await sendJson(harness, 'POST', apiPaths.identity.verifyUser, {
          username,
          state: incoming,
        });
        expect(response.status).toBe(200);
        const body = await response.json();
        return { next: body.next, state: decodeSignInState(body.state) };
      }),
    );
    expect(answers).toEqual([
      { next: 'password', state: { return_path: '/account/users', login_hint: user.userName } },
      { next: 'password', state: { return_path: '/account/users', login_hint: 'nobody-here' } },
    ]);
  });

  it('names the field of an invalid username', async () => {
    const response = await sendJson(harness, 'POST', apiPaths.identity.verifyUser, { username: 'has space' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: fieldError('username: invalid user name') });
  });

  it('refuses a wrong password and an unknown user with the same message, auditing the attempt without the password', async () => {
    const wrong = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: user.userName,
      password: 'Wrong-Password-1!',
    });
    const unknown = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: 'nobody-here',
      password: 'Wrong-Password-1!',
    });
    const expected = { error: { status: 401, message: 'Invalid username or password.' } };
    expect([wrong.status, await wrong.json()]).toEqual([401, expected]);
    expect([unknown.status, await unknown.json()]).toEqual([401, expected]);
    expect(wrong.headers.get('Set-Cookie')).toBeNull();

    const events = await auditEvents('LOGIN_ERROR');
    expect(events.map((event) => [event.actor_name, event.status, event.details])).toEqual([
      [user.userName, 'failure', { reason: 'wrong_password' }],
      ['nobody-here', 'failure', { reason: 'unknown_user' }],
    ]);
    expect(JSON.stringify(events)).not.toContain('Wrong-Password-1!');
  });

  it('records when a user last signed in, on success only and without changing its version', async () => {
    const person = await harness.createUser({ accessScope: 'system' });
    const stored = () =>
      harness.deps.db
        .selectFrom('users')
        .select(['last_sign_in_at', 'version'])
        .where('id', '=', person.id)
        .executeTakeFirstOrThrow();
    await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: person.userName,
      password: 'Wrong-Password-1!',
    });
    expect(await stored()).toEqual({ last_sign_in_at: null, version: 1 });
    const before = Date.now();
    await signIn(harness, person);
    const after = await stored();
    expect(after.version).toBe(1);
    expect(after.last_sign_in_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('signs in case-insensitively and sets the refresh token as a strict HttpOnly cookie on the refresh path', async () => {
    const response = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: user.userName.toUpperCase(),
      password: user.password,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_at', 'expires_in']);
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(590_000);
    // The lifetime as the server states it, for clients whose clock is off the server's.
    expect(body.expires_in).toBe(600);

    const cookie = response.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^refresh_token=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/imauth/api/v1/refresh');
    expect(cookie).toContain(`Max-Age=${harness.deps.config.refreshTokenTtlSeconds}`);
    expect(cookie).not.toContain('Secure');

    expect((await auditEvents('LOGIN')).at(-1)).toMatchObject({ actor_id: user.id, status: 'success' });
  });

  it('sets a readable hint beside the refresh cookie, living as long and carrying no secret', async () => {
    const response = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: user.userName,
      password: user.password,
    });
    const hint = response.headers
      .getSetCookie()
      .find((header) => header.startsWith(`${SESSION_HINT_COOKIE}=`));
    expect(hint).toMatch(new RegExp(`^${SESSION_HINT_COOKIE}=1;`));
    expect(hint).not.toContain('HttpOnly');
    expect(hint).toContain('SameSite=Strict');
    expect(hint).toContain('Path=/;');
    expect(hint).toContain(`Max-Age=${harness.deps.config.refreshTokenTtlSeconds}`);
  });

  it('uses a Secure __Secure- cookie when the request came over HTTPS', async () => {
    const response = await sendJson(
      harness,
      'POST',
      apiPaths.identity.login,
      { username: user.userName, password: user.password },
      { headers: { 'X-Forwarded-Proto': 'https' } },
    );
    const cookie = response.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^__Secure-refresh_token=/);
    // The hint goes with it, under the same prefix.
    expect(cookie).toMatch(new RegExp(`^__Secure-${SESSION_HINT_COOKIE}=1;.*Secure`, 'm'));
    expect(cookie).toContain('Secure');
  });

  it('tells who is signed in', async () => {
    const { accessToken } = await signIn(harness, user);
    const response = await send(harness, 'GET', apiPaths.identity.me, { token: accessToken });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: user.id,
      user_name: user.userName,
      access_scope: 'system',
      primary_account_id: user.accountId,
      session_id: expect.any(String),
      api_key_id: null,
    });
  });

  it('asks for a bearer token when there is none or it is not valid', async () => {
    for (const token of [undefined, 'not-a-jwt']) {
      const response = await send(harness, 'GET', apiPaths.identity.me, { token });
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({ error: { status: 401, message: 'Authentication required.' } });
    }
  });

  it('answers a lost refresh answer asked again by the same client with the same cookie, the session going on', async () => {
    const { cookie: first } = await signIn(harness, user);
    const browser = { 'User-Agent': 'Field laptop', 'X-Forwarded-For': '203.0.113.9' };
    const renew = (cookie: string) =>
      sendJson(harness, 'POST', apiPaths.identity.refresh, {}, { cookie, headers: browser });
    const lost = await renew(first);
    expect(lost.status).toBe(200);
    const again = await renew(first);
    expect(again.status).toBe(200);
    expect(refreshCookieOf(again)).toBe(refreshCookieOf(lost));
    const { access_token } = await again.json();
    expect((await send(harness, 'GET', apiPaths.identity.me, { token: access_token })).status).toBe(200);
    const next = await renew(refreshCookieOf(again));
    expect(next.status).toBe(200);
  });

  it('rotates the refresh cookie, and an old cookie reused from another client revokes the whole session at once', async () => {
    const { cookie: first } = await signIn(harness, user);
    const refreshed = await sendJson(harness, 'POST', apiPaths.identity.refresh, {}, { cookie: first });
    expect(refreshed.status).toBe(200);
    const body = await refreshed.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_at', 'expires_in']);
    const second = refreshCookieOf(refreshed);
    expect(second).not.toBe(first);
    expect((await send(harness, 'GET', apiPaths.identity.me, { token: body.access_token })).status).toBe(200);

    const reused = await sendJson(
      harness,
      'POST',
      apiPaths.identity.refresh,
      {},
      {
        cookie: first,
        headers: { 'X-Forwarded-For': '198.51.100.7' },
      },
    );
    expect(reused.status).toBe(401);
    expect(reused.headers.getSetCookie().join('\n')).toMatch(/refresh_token=;.*Max-Age=0/);

    expect((await send(harness, 'GET', apiPaths.identity.me, { token: body.access_token })).status).toBe(401);
    expect((await sendJson(harness, 'POST', apiPaths.identity.refresh, {}, { cookie: second })).status).toBe(
      401,
    );
    expect((await auditEvents('LOGOUT')).at(-1)).toMatchObject({
      status: 'failure',
      details: { reason: 'reuse_detected', session_id: expect.any(String) },
    });
  });

  it('refuses a cookie refresh that is not sent as JSON, so a cross-site form cannot trigger it', async () => {
    const { cookie } = await signIn(harness, user);
    const response = await harness.app.request(apiPaths.identity.refresh, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect((await sendJson(harness, 'POST', apiPaths.identity.refresh, {}, { cookie })).status).toBe(200);
  });

  it('refuses a refresh without any token', async () => {
    const response = await sendJson(harness, 'POST', apiPaths.identity.refresh, {});
    expect(response.status).toBe(401);
  });

  it('returns the rotated refresh token in the body to a client that sent it in the body', async () => {
    const { cookie } = await signIn(harness, user);
    const token = cookie.split('=')[1];
    const response = await sendJson(harness, 'POST', apiPaths.identity.refresh, { refresh_token: token });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_token).not.toBe(token);
    expect(
      (await sendJson(harness, 'POST', apiPaths.identity.refresh, { refresh_token: body.refresh_token }))
        .status,
    ).toBe(200);
  });

  it('makes the access token useless the moment the user signs out', async () => {
    const { accessToken, cookie } = await signIn(harness, user);
    const response = await send(harness, 'POST', apiPaths.identity.logout, { token: accessToken });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().join('\n')).toMatch(/refresh_token=;.*Max-Age=0/);
    expect(response.headers.getSetCookie().join('\n')).toMatch(
      new RegExp(`${SESSION_HINT_COOKIE}=;.*Max-Age=0`),
    );

    expect((await send(harness, 'GET', apiPaths.identity.me, { token: accessToken })).status).toBe(401);
    expect((await sendJson(harness, 'POST', apiPaths.identity.refresh, {}, { cookie })).status).toBe(401);
    expect((await auditEvents('LOGOUT')).at(-1)).toMatchObject({ actor_id: user.id, status: 'success' });
  });

  it('refuses to sign in a deactivated user with the usual message', async () => {
    const inactive = await harness.createUser({ accessScope: 'system' });
    await harness.deps.db.updateTable('users').set({ active: false }).where('id', '=', inactive.id).execute();
    const response = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: inactive.userName,
      password: inactive.password,
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toBe('Invalid username or password.');
  });

  it('answers 429 with Retry-After once an address has guessed too often, while the real user at home still signs in', async () => {
    const victim = await harness.createUser({ accessScope: 'account' });
    const attacker = { headers: { 'X-Forwarded-For': '203.0.113.66' } };
    const guess = () =>
      sendJson(
        harness,
        'POST',
        apiPaths.identity.login,
        { username: victim.userName, password: 'Guess-1234!' },
        attacker,
      );
    for (let i = 0; i <= PAIR_POLICY.freeFailures; i++) expect((await guess()).status).toBe(401);

    const throttled = await guess();
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('Retry-After')).toBe('30');
    expect(((await throttled.json()) as ApiErrorBody).error).toMatchObject({ code: 'throttled' });

    const home = { headers: { 'X-Forwarded-For': '192.0.2.44' } };
    await expect(signIn(harness, victim, home)).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('keeps the audit chain intact through all of it', async () => {
    expect((await verifyAuditChain(harness.deps.db)).ok).toBe(true);
  });
});

describe('recognising HTTPS', () => {
  async function secure(trustProxy: boolean, url: string, headers: Record<string, string> = {}) {
    const app = new Hono().get('/', (c) => c.text(String(isSecureRequest(c, { trustProxy }))));
    return (await app.request(url, { headers })).text();
  }

  it('trusts X-Forwarded-Proto only behind a configured proxy', async () => {
    expect(await secure(false, 'http://console.test/', { 'X-Forwarded-Proto': 'https' })).toBe('false');
    expect(await secure(true, 'http://console.test/', { 'X-Forwarded-Proto': 'https' })).toBe('true');
    expect(await secure(false, 'https://console.test/')).toBe('true');
  });
});
