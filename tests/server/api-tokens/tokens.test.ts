import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { API_TOKEN_PATTERN, type ApiToken, type ApiTokenList } from '../../../contract/schemas/api-tokens.ts';
import type { AuthMe } from '../../../contract/schemas/identity.ts';
import type { UserList } from '../../../contract/schemas/users.ts';
import { hashOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import { daysFromToday, fixedClock, TODAY } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { signIn } from '../identity/requests.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { createToken } from './helpers.ts';

/**
 * API tokens of people (decision 035 §3, decision 036): only the hash is stored and the value is answered
 * once; a token acts with its user's permissions and reach; what mints credentials needs a session;
 * nobody makes a token for someone else (escalation 7); a malformed token is 401, never 500.
 */

let harness: TestApp;
let system: Caller;
let accountAdmin: Caller;

async function session(user: { userName: string; password: string; id: string; accountId: string }) {
  return (await signIn(harness, user)).accessToken;
}

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  const systemUser = await harness.createUser({ accessScope: 'system' });
  system = { ...systemUser, token: await session(systemUser) };
  const accountUser = await harness.createUser({ accessScope: 'account' });
  accountAdmin = { ...accountUser, token: await session(accountUser) };
});

afterAll(() => harness.close());

describe('creating a token', () => {
  it('answers the value once, stores only its hash, and lists it without the value', async () => {
    const response = await call(harness, 'POST', apiPaths.users.apiTokens(accountAdmin.id), {
      token: accountAdmin.token,
      body: { name: 'Deploy script', end_date: daysFromToday(30) },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const created = (await response.json()) as ApiToken & { value: string };
    expect(created.value).toMatch(API_TOKEN_PATTERN);
    expect(created).toMatchObject({ name: 'Deploy script', hint: created.value.slice(-4), status: 'active' });

    const stored = await harness.deps.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashOpaqueToken(created.value));
    expect(JSON.stringify(stored)).not.toContain(created.value);
    expect(JSON.stringify(stored)).not.toContain(created.value.slice(4));

    const list = await call(harness, 'GET', apiPaths.users.apiTokens(accountAdmin.id), {
      token: accountAdmin.token,
    });
    const text = await list.text();
    expect(text).not.toContain(created.value);
    expect((JSON.parse(text) as ApiTokenList).items.map((item) => item.id)).toContain(created.id);
    const one = await call(harness, 'GET', apiPaths.users.apiToken(accountAdmin.id, created.id), {
      token: accountAdmin.token,
    });
    expect(await one.text()).not.toContain(created.value);

    const events = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', created.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(created.value);
    expect(events[0]).toMatchObject({ action: 'CREATE', resource_type: 'APIKEY' });
  });

  it('keeps no answer under an Idempotency-Key, since it holds the token', async () => {
    const key = '"token-creation-key"';
    const first = await call(harness, 'POST', apiPaths.users.apiTokens(accountAdmin.id), {
      token: accountAdmin.token,
      body: { name: 'Keyed', end_date: null },
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).toBe(201);
    const { value } = (await first.json()) as { value: string };
    const stored = await harness.deps.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(
      JSON.stringify(stored, (_key, item) =>
        item instanceof Uint8Array ? Buffer.from(item).toString() : item,
      ),
    ).not.toContain(value);
    expect(stored.filter((row) => row.key === 'token-creation-key')).toEqual([]);
  });

  it('refuses an end date not after today, a taken name and a 21st active token', async () => {
    const user = await callerWith(harness, { accessScope: 'account', permissions: [] });
    const today = await call(harness, 'POST', apiPaths.users.apiTokens(user.id), {
      token: user.token,
      body: { name: 'Today', end_date: TODAY },
    });
    expect(today.status).toBe(400);
    expect(await errorOf(today)).toMatchObject({ field: 'end_date', code: 'endDateNotInFuture' });

    await createToken(harness, user.token, user.id, { name: 'Twice' });
    const twice = await call(harness, 'POST', apiPaths.users.apiTokens(user.id), {
      token: user.token,
      body: { name: 'Twice', end_date: null },
    });
    expect(twice.status).toBe(409);
    expect(await errorOf(twice)).toMatchObject({ field: 'name', code: 'inUse' });

    for (let index = 1; index < 20; index += 1) await createToken(harness, user.token, user.id);
    const over = await call(harness, 'POST', apiPaths.users.apiTokens(user.id), {
      token: user.token,
      body: { name: 'One too many', end_date: null },
    });
    expect(over.status).toBe(409);
    expect(await errorOf(over)).toMatchObject({ code: 'limitReached' });
  });
});

describe('calling the API with a token', () => {
  it("acts with its user's permissions and reach, and says it is a token", async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const me = await call(harness, 'GET', apiPaths.identity.me, { token: created.value });
    expect(me.status).toBe(200);
    expect((await me.json()) as AuthMe).toMatchObject({ session_id: null, api_key_id: created.id });

    const users = await call(harness, 'GET', apiPaths.users.list, { token: created.value });
    expect(users.status).toBe(200);
    const ids = ((await users.json()) as UserList).items.map((user) => user.id);
    expect(ids).toContain(accountAdmin.id);
    expect(ids).not.toContain(system.id);

    const weak = await callerWith(harness, { accessScope: 'account', permissions: [] });
    const weakToken = await createToken(harness, weak.token, weak.id);
    expect((await call(harness, 'GET', apiPaths.users.list, { token: weakToken.value })).status).toBe(403);
  });

  it('records the token in the trail of changes made with it', async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const other = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const revoked = await call(harness, 'DELETE', apiPaths.users.apiToken(accountAdmin.id, other.id), {
      token: created.value,
    });
    expect(revoked.status).toBe(204);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', other.id)
      .where('action', '=', 'DELETE')
      .executeTakeFirstOrThrow();
    expect(event.details).toMatchObject({
      name: other.name,
      user_id: accountAdmin.id,
      api_key_id: created.id,
    });
  });

  it.each([
    ['the prefix alone', 'tct_'],
    ['too short', 'tct_abc'],
    ['too long', `tct_${'a'.repeat(44)}`],
    ['a character outside base64url', `tct_${'a'.repeat(42)}.`],
    ['well formed but unknown', `tct_${'a'.repeat(43)}`],
    ['another prefix', `tcx_${'a'.repeat(43)}`],
    ['a stray space', `tct_${'a'.repeat(21)} ${'a'.repeat(21)}`],
  ])('answers 401 to a token %s', async (_case, value) => {
    const response = await harness.app.request(apiPaths.users.list, {
      headers: { Authorization: `Bearer ${value}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
  });
});

describe('escalation 7: tokens only for oneself, only with a session', () => {
  it('refuses a token for another person, even to the system administrator', async () => {
    const response = await call(harness, 'POST', apiPaths.users.apiTokens(accountAdmin.id), {
      token: system.token,
      body: { name: 'Not mine', end_date: null },
    });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ code: 'ownUserOnly' });
  });

  it('refuses to create or extend a token with a token', async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id, {
      end_date: daysFromToday(5),
    });
    const minted = await call(harness, 'POST', apiPaths.users.apiTokens(accountAdmin.id), {
      token: created.value,
      body: { name: 'Minted by a token', end_date: null },
    });
    expect(minted.status).toBe(403);
    expect(await errorOf(minted)).toMatchObject({ code: 'sessionRequired' });

    const extended = await call(harness, 'PUT', apiPaths.users.apiToken(accountAdmin.id, created.id), {
      token: created.value,
      body: { end_date: null },
    });
    expect(extended.status).toBe(403);
    expect(await errorOf(extended)).toMatchObject({ code: 'sessionRequired' });
    const row = await harness.deps.db
      .selectFrom('api_tokens')
      .select('end_date')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.end_date).toBe(daysFromToday(5));
  });

  it('refuses with a token what only a session may do', async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const logout = await call(harness, 'POST', apiPaths.identity.logout, { token: created.value });
    expect(logout.status).toBe(403);
    const secret = await call(harness, 'GET', apiPaths.identity.storageSecret, { token: created.value });
    expect(secret.status).toBe(403);
  });

  it("refuses to change another person's token end date", async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const response = await call(harness, 'PUT', apiPaths.users.apiToken(accountAdmin.id, created.id), {
      token: system.token,
      body: { end_date: daysFromToday(3) },
    });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ code: 'ownUserOnly' });
  });
});

describe('editing and revoking', () => {
  it('sets the end date under If-Match and records only the end date', async () => {
    const created = await createToken(harness, accountAdmin.token, accountAdmin.id);
    const path = apiPaths.users.apiToken(accountAdmin.id, created.id);
    const stale = await call(harness, 'PUT', path, {
      token: accountAdmin.token,
      body: { end_date: daysFromToday(7) },
      headers: { 'If-Match': '"99"' },
    });
    expect(stale.status).toBe(412);
    const changed = await call(harness, 'PUT', path, {
      token: accountAdmin.token,
      body: { end_date: daysFromToday(7) },
      headers: { 'If-Match': `"${created.version}"` },
    });
    expect(changed.status).toBe(204);
    expect(changed.headers.get('ETag')).toBe(`"${created.version + 1}"`);
    const past = await call(harness, 'PUT', path, { token: accountAdmin.token, body: { end_date: TODAY } });
    expect(past.status).toBe(400);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', created.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(event.details).toEqual({ changes: { end_date: { from: null, to: daysFromToday(7) } } });
  });

  it('lets an administrator revoke the token of someone not stronger, and no one stronger', async () => {
    const partnerAccount = accountAdmin.accountId;
    const colleague = await callerWith(harness, {
      accessScope: 'account',
      accountId: partnerAccount,
      permissions: ['VIEW_USER'],
    });
    const colleagueToken = await createToken(harness, colleague.token, colleague.id);
    const byAdmin = await call(harness, 'DELETE', apiPaths.users.apiToken(colleague.id, colleagueToken.id), {
      token: accountAdmin.token,
    });
    expect(byAdmin.status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.users.list, { token: colleagueToken.value })).status).toBe(
      401,
    );

    const stronger = await callerWith(harness, {
      accessScope: 'account',
      accountId: partnerAccount,
      permissions: ['MANAGE_USER', 'MANAGE_ACCOUNT_USER', 'MANAGE_SYSTEM_SETTINGS'],
    });
    const strongerToken = await createToken(harness, stronger.token, stronger.id);
    const refused = await call(harness, 'DELETE', apiPaths.users.apiToken(stronger.id, strongerToken.id), {
      token: accountAdmin.token,
    });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'userExceedsYours' });

    const foreign = await call(harness, 'DELETE', apiPaths.users.apiToken(system.id, 'any'), {
      token: accountAdmin.token,
    });
    expect(foreign.status).toBe(404);
  });
});
