import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../../contract/csv.ts';
import { apiPaths } from '../../../contract/paths.ts';
import { API_TOKEN_PATTERN, type ApiTokenList } from '../../../contract/schemas/api-tokens.ts';
import type { AuthMe } from '../../../contract/schemas/identity.ts';
import type {
  ServiceUser,
  ServiceUserCreated,
  ServiceUserList,
} from '../../../contract/schemas/service-users.ts';
import type { UserList } from '../../../contract/schemas/users.ts';
import { SERVICE_USER_CSV_COLUMNS } from '../../../contract/service-user-csv.ts';
import { ROLE_NAME_SEPARATOR } from '../../../contract/user-csv.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { startSession } from '../../../server/identity/sessions.ts';
import { daysFromToday, fixedClock, insertAccount } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { sendJson } from '../identity/requests.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole } from '../users/helpers.ts';
import { insertTestServiceUser, tokenFor } from './helpers.ts';

/**
 * Service users (decision 018 §1, decision 035 §4, decision 036): made with their first token, which answers once; listed,
 * exported, read and edited within reach; disabled, expired or deleted, their tokens stop on the next
 * request; they never sign in or refresh; what their tokens do is recorded under their name.
 */

let harness: TestApp;
let admin: Caller;
let accountA: string;
let foreignAccount: string;
let viewerRole: string;
let accountAdministratorRole: string;

const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, headers = {}) =>
  call(harness, method, path, { token: admin.token, body, headers });

async function create(body: Record<string, unknown> = {}): Promise<ServiceUserCreated> {
  const response = await asAdmin('POST', apiPaths.serviceUsers.list, {
    name: `svc ${Math.random().toString(36).slice(2, 8)}`,
    email: 'owner@example.com',
    primary_account_id: accountA,
    role_ids: [viewerRole],
    ...body,
  });
  if (response.status !== 201)
    throw new Error(`Creation answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ServiceUserCreated;
}

const me = (token: string) => call(harness, 'GET', apiPaths.identity.me, { token });

async function read(id: string): Promise<{ body: ServiceUser; etag: string }> {
  const response = await asAdmin('GET', apiPaths.serviceUsers.byId(id));
  expect(response.status).toBe(200);
  return { body: (await response.json()) as ServiceUser, etag: response.headers.get('ETag') ?? '' };
}

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  await harness.installLicence();
  accountA = await insertAccount(harness, { name: 'Account A' });
  foreignAccount = await insertAccount(harness, { name: 'Account B' });
  admin = await callerWith(harness, {
    accessScope: 'account',
    accountId: accountA,
    permissions: ['VIEW_USER', 'MANAGE_USER', 'MANAGE_ACCOUNT_USER', 'VIEW_ACCOUNT'],
  });
  viewerRole = await insertCustomRole(harness, accountA, ['VIEW_USER'], 'Viewers');
  const builtIn = await harness.deps.db
    .selectFrom('roles')
    .select('id')
    .where('code', '=', 'account_administrator')
    .executeTakeFirstOrThrow();
  accountAdministratorRole = builtIn.id;
});
afterAll(() => harness.close());

describe('creating a service user', () => {
  it('answers the service user and its first token once, and the token acts as the service user', async () => {
    const response = await asAdmin('POST', apiPaths.serviceUsers.list, {
      name: 'Nightly export',
      description: 'Copies accounts to the warehouse',
      email: 'data-team@example.com',
      end_date: daysFromToday(30),
      primary_account_id: accountA,
      role_ids: [viewerRole],
      token_name: 'Warehouse',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const created = (await response.json()) as ServiceUserCreated;
    expect(created.service_user).toMatchObject({
      name: 'Nightly export',
      description: 'Copies accounts to the warehouse',
      email: 'data-team@example.com',
      end_date: daysFromToday(30),
      status: 'enabled',
      enabled: true,
      access_scope: 'account',
      primary_account: { id: accountA, name: 'Account A' },
      roles: [{ id: viewerRole, name: 'Viewers', code: null, built_in: false }],
      permissions: ['VIEW_USER'],
      created_by: { id: admin.id, name: admin.userName },
    });
    expect(created.api_token.value).toMatch(API_TOKEN_PATTERN);
    expect(created.api_token).toMatchObject({ name: 'Warehouse', user_id: created.service_user.id });

    const whoAmI = await me(created.api_token.value);
    expect(whoAmI.status).toBe(200);
    expect(((await whoAmI.json()) as AuthMe).user_name).toBe('Nightly export');

    const stored = await harness.deps.db
      .selectFrom('users')
      .select(['kind', 'password_hash'])
      .where('id', '=', created.service_user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ kind: 'service', password_hash: null });

    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'resource_type', 'details', 'actor_id'])
      .where('resource_id', 'in', [created.service_user.id, created.api_token.id])
      .orderBy('seq')
      .execute();
    expect(events.map((event) => `${event.action} ${event.resource_type}`)).toEqual([
      'CREATE USER',
      'CREATE APIKEY',
    ]);
    expect(events[0]?.details).toMatchObject({ user_name: 'Nightly export', kind: 'service' });
    expect(JSON.stringify(events)).not.toContain(created.api_token.value);
    expect(JSON.stringify(events)).not.toContain('data-team@example.com');
  });

  it('keeps the name unique among people and service users alike (409 inUse)', async () => {
    const first = await create();
    for (const name of [first.service_user.name.toUpperCase(), admin.userName]) {
      const response = await asAdmin('POST', apiPaths.serviceUsers.list, {
        name,
        email: 'owner@example.com',
        primary_account_id: accountA,
        role_ids: [viewerRole],
      });
      expect(response.status).toBe(409);
      expect(await errorOf(response)).toMatchObject({ field: 'name', code: 'inUse' });
    }
  });

  it('refuses a name outside letters, digits, spaces, dashes and underscores, and over 64', async () => {
    for (const name of ['deploy/bot', 'a'.repeat(65), '   ']) {
      const response = await asAdmin('POST', apiPaths.serviceUsers.list, {
        name,
        email: 'owner@example.com',
        primary_account_id: accountA,
        role_ids: [viewerRole],
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe('name');
    }
  });

  it('answers 404 for an account out of reach and 403 for a role granting more than the caller holds', async () => {
    const foreign = await asAdmin('POST', apiPaths.serviceUsers.list, {
      name: 'Foreign bot',
      email: 'owner@example.com',
      primary_account_id: foreignAccount,
      role_ids: [viewerRole],
    });
    expect(foreign.status).toBe(404);
    const stronger = await asAdmin('POST', apiPaths.serviceUsers.list, {
      name: 'Strong bot',
      email: 'owner@example.com',
      primary_account_id: accountA,
      role_ids: [accountAdministratorRole],
    });
    expect(stronger.status).toBe(403);
    expect(await errorOf(stronger)).toMatchObject({ field: 'role_ids', code: 'permissionNotHeld' });
  });

  it('is refused to an API token (403 sessionRequired), so a leaked token mints no credential', async () => {
    const token = await tokenFor(harness, admin.id);
    const response = await call(harness, 'POST', apiPaths.serviceUsers.list, {
      token: token.value,
      body: { name: 'Minted', email: 'a@example.com', primary_account_id: accountA, role_ids: [viewerRole] },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('sessionRequired');
  });

  it('keeps no answer under an Idempotency-Key, since it holds a token', async () => {
    const body = {
      name: 'Keyed bot',
      email: 'a@example.com',
      primary_account_id: accountA,
      role_ids: [viewerRole],
    };
    const headers = { 'Idempotency-Key': '"service-user-1"' };
    const first = await asAdmin('POST', apiPaths.serviceUsers.list, body, headers);
    expect(first.status).toBe(201);
    const second = await asAdmin('POST', apiPaths.serviceUsers.list, body, headers);
    expect(second.status).toBe(409);
  });
});

describe('the people routes', () => {
  it('do not reach a service user: user/{id} and its mail, access, token and delete calls answer 404', async () => {
    const made = await create({ name: 'Not a person bot' });
    const id = made.service_user.id;
    const ifMatch = { 'If-Match': '"1"' };
    const attempts: [string, 'GET' | 'PUT' | 'DELETE' | 'POST', string, unknown?][] = [
      ['read', 'GET', apiPaths.users.byId(id)],
      [
        'edit',
        'PUT',
        apiPaths.users.byId(id),
        { first_name: 'A', last_name: 'B', user_name: 'x', email: 'x@example.com', locale: 'en_US' },
      ],
      ['reset mail', 'PUT', apiPaths.users.resetMail(id)],
      ['verification', 'PUT', apiPaths.users.verification(id)],
      ['access', 'PUT', apiPaths.users.access(id), { account_ids: [], role_ids: [viewerRole] }],
      ['tokens', 'GET', apiPaths.users.apiTokens(id)],
      ['two-factor', 'DELETE', apiPaths.users.mfa(id)],
      ['delete', 'DELETE', apiPaths.users.byId(id)],
    ];
    for (const [label, method, path, body] of attempts) {
      const response = await asAdmin(method, path, body, ifMatch);
      expect(response.status, label).toBe(404);
    }
    expect((await read(id)).body.status).toBe('enabled');
  });
});

describe('listing and exporting', () => {
  it('lists service users with filters and sort, never in the people list', async () => {
    const made = await create({ name: 'Zeta listing bot', description: 'find-me-here' });
    const list = await asAdmin('GET', `${apiPaths.serviceUsers.list}?q=FIND-ME&sort=name:desc&limit=5`);
    expect(list.status).toBe(200);
    const body = (await list.json()) as ServiceUserList;
    expect(body.items.map((item) => item.id)).toEqual([made.service_user.id]);
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({ status: 'enabled', roles: [{ name: 'Viewers', code: null }] });

    const people = (await (await asAdmin('GET', `${apiPaths.users.list}?limit=1000`)).json()) as UserList;
    expect(people.items.map((item) => item.id)).not.toContain(made.service_user.id);

    for (const sort of ['account', 'status', 'end_date', 'last_used', 'created']) {
      const sorted = await asAdmin('GET', `${apiPaths.serviceUsers.list}?sort=${sort}:asc`);
      expect(sorted.status).toBe(200);
    }
    const disabled = await asAdmin('GET', `${apiPaths.serviceUsers.list}?status=disabled&q=Zeta`);
    expect(((await disabled.json()) as ServiceUserList).total).toBe(0);
  });

  it('answers 404 for an account filter out of reach and 400 for an unknown sort', async () => {
    expect((await asAdmin('GET', `${apiPaths.serviceUsers.list}?account_id=${foreignAccount}`)).status).toBe(
      404,
    );
    expect((await asAdmin('GET', `${apiPaths.serviceUsers.list}?sort=password:asc`)).status).toBe(400);
  });

  it('exports the matching service users as CSV with the contract’s columns', async () => {
    const made = await create({ name: 'Exported bot' });
    const response = await asAdmin('GET', `${apiPaths.serviceUsers.export}?q=Exported&sort=end_date:desc`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.split('\r\n')[0]).toBe(SERVICE_USER_CSV_COLUMNS.join(','));
    expect(text).toContain(made.service_user.name);
  });
});

describe('the export’s lines', () => {
  it('are what the CSV writer writes for the list’s service users, byte for byte', async () => {
    // Written by the database (decision 027); the expected lines by contract/csv.ts from the list.
    const used = await create({
      name: 'Lines used',
      description: '-Copies, "quoted"\nover two lines',
      end_date: daysFromToday(5),
    });
    expect((await me(used.api_token.value)).status).toBe(200);
    await create({ name: 'Lines never used', description: '@once' });
    const query = '?q=Lines&sort=last_used:desc';
    const list = (await (
      await asAdmin('GET', `${apiPaths.serviceUsers.list}${query}`)
    ).json()) as ServiceUserList;
    expect(list.items.map((item) => item.last_used_at === null)).toEqual([false, true]);
    const text = await (await asAdmin('GET', `${apiPaths.serviceUsers.export}${query}`)).text();
    const lines = list.items.map((item) =>
      csvLine([
        item.name,
        item.description,
        item.email,
        item.primary_account.name,
        item.status,
        item.end_date ?? '',
        item.roles.map((role) => role.name).join(ROLE_NAME_SEPARATOR),
        item.last_used_at ?? '',
        item.created_at,
      ]),
    );
    expect(text).toBe(csvLine(SERVICE_USER_CSV_COLUMNS) + lines.join(''));
  });
});

describe('changing a service user', () => {
  it('updates its fields with If-Match, withholding the e-mail from the trail', async () => {
    const made = await create();
    const { etag } = await read(made.service_user.id);
    const body = {
      name: 'Renamed bot',
      description: 'New text',
      email: 'new@example.com',
      end_date: daysFromToday(10),
    };
    const missing = await asAdmin('PUT', apiPaths.serviceUsers.byId(made.service_user.id), body);
    expect(missing.status).toBe(428);
    const response = await asAdmin('PUT', apiPaths.serviceUsers.byId(made.service_user.id), body, {
      'If-Match': etag,
    });
    expect(response.status).toBe(204);
    const stale = await asAdmin('PUT', apiPaths.serviceUsers.byId(made.service_user.id), body, {
      'If-Match': etag,
    });
    expect(stale.status).toBe(412);
    const after = await read(made.service_user.id);
    expect(after.body).toMatchObject(
      body.name ? { name: 'Renamed bot', email: 'new@example.com', end_date: daysFromToday(10) } : {},
    );
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select('details')
      .where('resource_id', '=', made.service_user.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(event.details).toMatchObject({
      changes: { email: { withheld: true }, user_name: { to: 'Renamed bot' } },
    });
    expect(JSON.stringify(event.details)).not.toContain('new@example.com');
  });

  it('replaces its roles with If-Match, under the rules of giving roles to people', async () => {
    const made = await create();
    const path = apiPaths.serviceUsers.access(made.service_user.id);
    const otherRole = await insertCustomRole(harness, accountA, ['VIEW_ACCOUNT'], 'Account viewers');
    const body = { account_ids: [], role_ids: [otherRole] };
    expect((await asAdmin('PUT', path, body)).status).toBe(428);
    const { etag } = await read(made.service_user.id);
    const stronger = await asAdmin(
      'PUT',
      path,
      { account_ids: [], role_ids: [accountAdministratorRole] },
      {
        'If-Match': etag,
      },
    );
    expect(stronger.status).toBe(403);
    expect(await errorOf(stronger)).toMatchObject({ field: 'role_ids', code: 'permissionNotHeld' });
    const response = await asAdmin('PUT', path, body, { 'If-Match': etag });
    expect(response.status).toBe(204);
    const after = await read(made.service_user.id);
    expect(after.body.roles.map((role) => role.name)).toEqual(['Account viewers']);
    expect(after.body.permissions).toEqual(['VIEW_ACCOUNT']);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select('details')
      .where('resource_id', '=', made.service_user.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(event.details).toMatchObject({
      changes: { roles: { from: ['Viewers'], to: ['Account viewers'] } },
    });
  });

  it('refuses an end date that is not in the future', async () => {
    const made = await create();
    const { etag } = await read(made.service_user.id);
    const response = await asAdmin(
      'PUT',
      apiPaths.serviceUsers.byId(made.service_user.id),
      { name: made.service_user.name, description: '', email: 'a@example.com', end_date: daysFromToday(0) },
      { 'If-Match': etag },
    );
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'end_date', code: 'endDateNotInFuture' });
  });

  it('disabling stops its tokens on the next request and enabling brings them back', async () => {
    const made = await create();
    const token = made.api_token.value;
    expect((await me(token)).status).toBe(200);
    const { etag } = await read(made.service_user.id);
    const disable = await asAdmin(
      'PUT',
      apiPaths.serviceUsers.enable(made.service_user.id),
      { enabled: false },
      {
        'If-Match': etag,
      },
    );
    expect(disable.status).toBe(204);
    expect((await me(token)).status).toBe(401);
    expect((await read(made.service_user.id)).body.status).toBe('disabled');
    const again = await read(made.service_user.id);
    const enable = await asAdmin(
      'PUT',
      apiPaths.serviceUsers.enable(made.service_user.id),
      { enabled: true },
      {
        'If-Match': again.etag,
      },
    );
    expect(enable.status).toBe(204);
    expect((await me(token)).status).toBe(200);
  });

  it('deleting removes it with its tokens', async () => {
    const made = await create();
    const response = await asAdmin('DELETE', apiPaths.serviceUsers.byId(made.service_user.id));
    expect(response.status).toBe(204);
    expect((await asAdmin('GET', apiPaths.serviceUsers.byId(made.service_user.id))).status).toBe(404);
    expect((await me(made.api_token.value)).status).toBe(401);
    const tokens = await harness.deps.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', made.service_user.id)
      .execute();
    expect(tokens).toEqual([]);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select('details')
      .where('resource_id', '=', made.service_user.id)
      .where('action', '=', 'DELETE')
      .executeTakeFirstOrThrow();
    expect(event.details).toMatchObject({ kind: 'service' });
  });
});

describe('its tokens', () => {
  it('are made, listed and revoked by whoever may change the service user', async () => {
    const made = await create({ end_date: daysFromToday(20) });
    const path = apiPaths.serviceUsers.apiTokens(made.service_user.id);
    const second = await asAdmin('POST', path, { name: 'Second', end_date: daysFromToday(5) });
    expect(second.status).toBe(201);
    expect(second.headers.get('Cache-Control')).toBe('no-store');
    const beyond = await asAdmin('POST', path, { name: 'Beyond', end_date: daysFromToday(40) });
    expect(beyond.status).toBe(400);
    expect((await errorOf(beyond)).field).toBe('end_date');
    const list = (await (await asAdmin('GET', path)).json()) as ApiTokenList;
    expect(list.total).toBe(2);
    const revoke = await asAdmin(
      'DELETE',
      apiPaths.serviceUsers.apiToken(made.service_user.id, made.api_token.id),
    );
    expect(revoke.status).toBe(204);
    expect((await me(made.api_token.value)).status).toBe(401);
  });

  it('of a person are not reached through the service-user paths', async () => {
    const response = await asAdmin('GET', apiPaths.serviceUsers.apiTokens(admin.id));
    expect(response.status).toBe(404);
  });

  it('stop once the service user is past its end date (401)', async () => {
    const made = await create({ end_date: daysFromToday(3) });
    expect((await me(made.api_token.value)).status).toBe(200);
    await harness.deps.db
      .updateTable('service_users')
      .set({ end_date: daysFromToday(-1) })
      .where('user_id', '=', made.service_user.id)
      .execute();
    expect((await me(made.api_token.value)).status).toBe(401);
    expect((await read(made.service_user.id)).body.status).toBe('expired');
  });

  it('act in the trail under the service user’s name', async () => {
    const actor = await insertTestServiceUser(harness, {
      accountId: accountA,
      createdBy: admin.id,
      roleIds: [accountAdministratorRole],
    });
    const token = await tokenFor(harness, actor.id);
    const target = await create();
    const { etag } = await read(target.service_user.id);
    const response = await call(harness, 'PUT', apiPaths.serviceUsers.enable(target.service_user.id), {
      token: token.value,
      body: { enabled: false },
      headers: { 'If-Match': etag },
    });
    expect(response.status).toBe(204);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select(['actor_id', 'actor_name', 'details'])
      .where('resource_id', '=', target.service_user.id)
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      actor_id: actor.id,
      actor_name: actor.name,
      details: { api_key_id: token.id },
    });
  });
});

describe('signing in', () => {
  it('refuses a service user even with a password, and refuses its refresh', async () => {
    const made = await create({ name: 'sign-in-bot' });
    await harness.deps.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('Correct-Horse-42!') })
      .where('id', '=', made.service_user.id)
      .execute();
    const login = await sendJson(harness, 'POST', apiPaths.identity.login, {
      username: 'sign-in-bot',
      password: 'Correct-Horse-42!',
    });
    expect(login.status).toBe(401);

    const { refreshToken } = await startSession(harness.deps.db, harness.deps, {
      userId: made.service_user.id,
      ipAddress: null,
      userAgent: null,
    });
    const refresh = await sendJson(harness, 'POST', apiPaths.identity.refresh, {
      refresh_token: refreshToken.token,
    });
    expect(refresh.status).toBe(401);
  });
});
