import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Organization } from '../../../contract/schemas/organizations.ts';
import {
  ANONYMOUS_SCOPE,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  requestFingerprint,
} from '../../../server/http/idempotency.ts';
import { refreshCookieOf, sendJson, signIn } from '../identity/requests.ts';
import { type Caller, call, callerWith, organizationFields } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** The Idempotency-Key header on mutating requests (docs/decisions/014-idempotency-and-preconditions.md). */

let harness: TestApp;
let clock: Date;
let caller: Caller;

beforeAll(async () => {
  clock = new Date('2026-03-10T12:00:00Z');
  // Long-lived tokens: some tests move the clock on by minutes.
  harness = await createTestApp({ now: () => clock, config: { accessTokenTtlSeconds: 24 * 3600 } });
  caller = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
});
afterAll(() => harness.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const keyed = (key: string, headers: Record<string, string> = {}) => ({
  'Idempotency-Key': `"${key}"`,
  ...headers,
});

function createOrganization(key: string | null, fields = organizationFields(), who: Caller = caller) {
  return call(harness, 'POST', apiPaths.organizations.list, {
    token: who.token,
    body: { ...fields, account_id: who.accountId },
    headers: key === null ? {} : keyed(key),
  });
}

async function organizationsNamed(name: string): Promise<number> {
  const row = await harness.deps.db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.count;
}

async function auditEvents(resourceId: string, action: string): Promise<number> {
  const row = await harness.deps.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('resource_id', '=', resourceId)
    .where('action', '=', action)
    .executeTakeFirstOrThrow();
  return row.count;
}

function records(key: string) {
  return harness.deps.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute();
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { status: number; message: string } }).error;
}

/** The body bytes `call` sends for a JSON body. */
const bytesOf = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

describe('a request sent again with the same key', () => {
  it('gets the stored answer, marked as a replay, and creates nothing more', async () => {
    const key = randomUUID();
    const fields = organizationFields();
    const first = await createOrganization(key, fields);
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotency-Replayed')).toBeNull();
    const firstBody = await first.text();
    const created = JSON.parse(firstBody) as Organization;

    const again = await createOrganization(key, fields);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    for (const header of ['Content-Type', 'ETag', 'Location']) {
      expect(again.headers.get(header)).toBe(first.headers.get(header));
    }
    expect(again.headers.get('Cache-Control')).toBe('no-store');
    expect(again.headers.get('X-Content-Type-Options')).toBe('nosniff');

    expect(await organizationsNamed(fields.name)).toBe(1);
    expect(await auditEvents(created.id, 'CREATE')).toBe(1);
    expect(await records(key)).toMatchObject([
      { scope: `user:${caller.id}`, response_status: 201, completed_at: expect.any(Date) },
    ]);
  });

  it('replays a change and a deletion without making either twice', async () => {
    const created = (await (await createOrganization(null)).json()) as Organization;
    const path = apiPaths.organizations.byId(created.id);
    const change = (key: string) =>
      call(harness, 'PUT', path, {
        token: caller.token,
        body: organizationFields({ name: `Changed ${created.id}` }),
        headers: keyed(key, { 'If-Match': '"1"' }),
      });
    const changeKey = randomUUID();
    expect((await change(changeKey)).status).toBe(204);
    const replayed = await change(changeKey);
    expect(replayed.status).toBe(204);
    expect(replayed.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await replayed.text()).toBe('');
    expect(await auditEvents(created.id, 'UPDATE')).toBe(1);

    const remove = (key: string) =>
      call(harness, 'DELETE', path, { token: caller.token, headers: keyed(key, { 'If-Match': '"2"' }) });
    const removeKey = randomUUID();
    expect((await remove(removeKey)).status).toBe(204);
    const removedAgain = await remove(removeKey);
    expect(removedAgain.status).toBe(204);
    expect(removedAgain.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await auditEvents(created.id, 'DELETE')).toBe(1);
  });

  it('runs every time without a key, as before', async () => {
    const fields = organizationFields();
    expect((await createOrganization(null, fields)).status).toBe(201);
    expect((await createOrganization(null, fields)).status).toBe(201);
    expect(await organizationsNamed(fields.name)).toBe(2);
  });

  it('ignores the key on reads', async () => {
    const response = await call(harness, 'GET', apiPaths.organizations.list, {
      token: caller.token,
      headers: { 'Idempotency-Key': 'not a structured string' },
    });
    expect(response.status).toBe(200);
  });
});

describe('a key sent with a different request', () => {
  it('answers 422 for another body, path, query or If-Match, and changes nothing', async () => {
    const key = randomUUID();
    const fields = organizationFields();
    expect((await createOrganization(key, fields)).status).toBe(201);

    const otherBody = await createOrganization(key, { ...fields, city: 'Porto' });
    const otherQuery = await call(harness, 'POST', `${apiPaths.organizations.list}?x=1`, {
      token: caller.token,
      body: { ...fields, account_id: caller.accountId },
      headers: keyed(key),
    });
    const otherIfMatch = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...fields, account_id: caller.accountId },
      headers: keyed(key, { 'If-Match': '"1"' }),
    });
    const otherPath = await call(harness, 'POST', apiPaths.tenants.list, {
      token: caller.token,
      body: { ...fields, account_id: caller.accountId },
      headers: keyed(key),
    });
    for (const response of [otherBody, otherQuery, otherIfMatch, otherPath]) {
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toEqual({
        status: 422,
        message:
          'This Idempotency-Key was already used for a different request; send a new key for a new request.',
        field: 'Idempotency-Key',
        code: 'inUse',
      });
    }
    expect(await organizationsNamed(fields.name)).toBe(1);
  });
});

describe('a key whose first request has not finished', () => {
  async function claimInProgress(key: string, body: unknown, createdAt: Date): Promise<void> {
    await harness.deps.db
      .insertInto('idempotency_keys')
      .values({
        scope: `user:${caller.id}`,
        key,
        fingerprint: requestFingerprint('POST', apiPaths.organizations.list, undefined, bytesOf(body)),
        created_at: createdAt,
      })
      .execute();
  }

  it('answers 409 with Retry-After while the first request runs', async () => {
    const key = randomUUID();
    const fields = organizationFields();
    await claimInProgress(key, { ...fields, account_id: caller.accountId }, clock);
    const response = await createOrganization(key, fields);
    expect(response.status).toBe(409);
    expect(response.headers.get('Retry-After')).toBe('1');
    expect(await errorOf(response)).toEqual({
      status: 409,
      message: 'A request with this Idempotency-Key is still being processed; try again shortly.',
      field: 'Idempotency-Key',
      code: 'conflict',
    });
    expect(await organizationsNamed(fields.name)).toBe(0);
  });

  it('answers 409 without Retry-After once the lease has passed: the outcome is unknown', async () => {
    const key = randomUUID();
    const fields = organizationFields();
    const started = new Date(clock.getTime() - IDEMPOTENCY_LEASE_MS);
    await claimInProgress(key, { ...fields, account_id: caller.accountId }, started);
    const response = await createOrganization(key, fields);
    expect(response.status).toBe(409);
    expect(response.headers.get('Retry-After')).toBeNull();
    expect(await errorOf(response)).toEqual({
      status: 409,
      message:
        'The outcome of the earlier request with this Idempotency-Key is unknown: it did not finish. Check the object before applying the change again, with a new key.',
      field: 'Idempotency-Key',
      code: 'conflict',
    });
    expect(await organizationsNamed(fields.name)).toBe(0);
  });

  it('makes the change once when the same request arrives twice at once', async () => {
    const key = randomUUID();
    const fields = organizationFields();
    const responses = await Promise.all([createOrganization(key, fields), createOrganization(key, fields)]);
    const outcomes = responses
      .map((response) => `${response.status}${response.headers.get('Idempotency-Replayed') ? ' replay' : ''}`)
      .sort();
    expect([
      ['201', '201 replay'],
      ['201', '409'],
    ]).toContainEqual(outcomes);
    expect(await organizationsNamed(fields.name)).toBe(1);
  });
});

describe('answers that are not kept', () => {
  it('5xx: the change rolled back, the key is freed and a later attempt runs; nothing of the body is logged', async () => {
    const { db } = harness.deps;
    const fields = organizationFields({
      name: `Failing ${randomUUID().slice(0, 8)}`,
      address: 'Secret Lane 7',
    });
    await sql`create function fail_named_organization() returns trigger language plpgsql as $$
      begin
        if new.name = ${sql.lit(fields.name)} then raise exception 'injected failure'; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger fail_named_organization before insert on organizations
      for each row execute function fail_named_organization()`.execute(db);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const key = randomUUID();
    try {
      const failed = await createOrganization(key, fields);
      expect(failed.status).toBe(500);
      expect(await records(key)).toEqual([]);
    } finally {
      await sql`drop trigger fail_named_organization on organizations`.execute(db);
      await sql`drop function fail_named_organization()`.execute(db);
    }
    expect(logged).toHaveBeenCalled();
    const log = JSON.stringify(logged.mock.calls, (_name, value: unknown) =>
      value instanceof Error ? `${value.message} ${value.stack}` : value,
    );
    expect(log).not.toContain('Secret Lane 7');

    const retried = await createOrganization(key, fields);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotency-Replayed')).toBeNull();
    expect(await organizationsNamed(fields.name)).toBe(1);
  });

  it('401: the same user signs in again and the key runs', async () => {
    const user = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
    await harness.deps.db
      .updateTable('sessions')
      .set({ revoked_at: clock, revoked_reason: 'logout' })
      .where('user_id', '=', user.id)
      .execute();
    const key = randomUUID();
    const fields = organizationFields();
    const refused = await createOrganization(key, fields, user);
    expect(refused.status).toBe(401);
    expect(await records(key)).toEqual([]);

    const again = { ...user, token: (await signIn(harness, user)).accessToken };
    const accepted = await createOrganization(key, fields, again);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('Idempotency-Replayed')).toBeNull();
    expect(await organizationsNamed(fields.name)).toBe(1);
  });

  it('never replays a stored answer to a token whose session has ended', async () => {
    const user = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
    const key = randomUUID();
    const fields = organizationFields();
    const first = await createOrganization(key, fields, user);
    expect(first.status).toBe(201);
    await harness.deps.db
      .updateTable('sessions')
      .set({ revoked_at: clock, revoked_reason: 'logout' })
      .where('user_id', '=', user.id)
      .execute();

    const ended = await createOrganization(key, fields, user);
    expect(ended.status).toBe(401);
    expect(ended.headers.get('Idempotency-Replayed')).toBeNull();
    expect(await records(key)).toMatchObject([{ scope: `user:${user.id}`, response_status: 201 }]);

    const again = { ...user, token: (await signIn(harness, user)).accessToken };
    const replayed = await createOrganization(key, fields, again);
    expect(replayed.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await first.json());
    expect(await organizationsNamed(fields.name)).toBe(1);
  });

  it('403: once the user holds the permission the key runs', async () => {
    const user = await callerWith(harness, { accessScope: 'account', permissions: ['VIEW_ORGANIZATION'] });
    const key = randomUUID();
    const fields = organizationFields();
    expect((await createOrganization(key, fields, user)).status).toBe(403);
    expect(await records(key)).toEqual([]);

    await harness.deps.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(['MANAGE_ORGANIZATION']) })
      .where('account_id', '=', user.accountId)
      .execute();
    expect((await createOrganization(key, fields, user)).status).toBe(201);
  });

  it('keeps other refusals, such as a 400, and answers them again', async () => {
    const key = randomUUID();
    const invalid = { ...organizationFields(), country: 'XX' };
    const first = await createOrganization(key, invalid);
    expect(first.status).toBe(400);
    const again = await createOrganization(key, invalid);
    expect(again.status).toBe(400);
    expect(again.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
  });
});

describe('scope and lifetime of a key', () => {
  it('keeps the keys of two users apart', async () => {
    const other = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
    const key = randomUUID();
    const mine = await createOrganization(key, organizationFields(), caller);
    const theirs = await createOrganization(key, organizationFields(), other);
    for (const response of [mine, theirs]) {
      expect(response.status).toBe(201);
      expect(response.headers.get('Idempotency-Replayed')).toBeNull();
    }
    const [a, b] = [(await mine.json()) as Organization, (await theirs.json()) as Organization];
    expect(a.id).not.toBe(b.id);
    expect((await records(key)).map((record) => record.scope).sort()).toEqual(
      [`user:${caller.id}`, `user:${other.id}`].sort(),
    );
  });

  it('files requests without a valid token under the anonymous scope', async () => {
    const key = randomUUID();
    const send = () =>
      call(harness, 'POST', apiPaths.setup.licence, {
        body: { body: 'not a licence' },
        headers: keyed(key, { Authorization: 'Bearer not.a.token' }),
      });
    const first = await send();
    expect(first.status).toBe(400);
    const again = await send();
    expect(again.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await records(key)).toMatchObject([{ scope: ANONYMOUS_SCOPE, response_status: 400 }]);
  });

  it('counts a record older than 24 hours as absent', async () => {
    const key = randomUUID();
    await harness.deps.db
      .insertInto('idempotency_keys')
      .values({
        scope: `user:${caller.id}`,
        key,
        fingerprint: 'of another request',
        created_at: new Date(clock.getTime() - IDEMPOTENCY_RETENTION_MS),
        response_status: 201,
        response_headers: JSON.stringify({}),
        response_body: Buffer.from('{}'),
        completed_at: new Date(clock.getTime() - IDEMPOTENCY_RETENTION_MS),
      })
      .execute();
    const fields = organizationFields();
    const response = await createOrganization(key, fields);
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotency-Replayed')).toBeNull();
    expect(await organizationsNamed(fields.name)).toBe(1);
  });

  it('purges expired records at most once a minute', async () => {
    const expired = async () => {
      const key = randomUUID();
      await harness.deps.db
        .insertInto('idempotency_keys')
        .values({
          scope: 'user:nobody',
          key,
          fingerprint: 'old',
          created_at: new Date(clock.getTime() - IDEMPOTENCY_RETENTION_MS - 1000),
        })
        .execute();
      return key;
    };
    clock = new Date(clock.getTime() + 61_000);
    const first = await expired();
    expect((await createOrganization(randomUUID())).status).toBe(201);
    expect(await records(first)).toEqual([]);

    const second = await expired();
    clock = new Date(clock.getTime() + 30_000);
    expect((await createOrganization(randomUUID())).status).toBe(201);
    expect(await records(second)).toHaveLength(1);

    clock = new Date(clock.getTime() + 31_000);
    expect((await createOrganization(randomUUID())).status).toBe(201);
    expect(await records(second)).toEqual([]);
  });
});

describe('the header itself', () => {
  it.each([
    ['a token, not a string', 'abc'],
    ['an empty string', '""'],
    ['longer than 255 characters', `"${'a'.repeat(256)}"`],
    ['a list', '"a", "b"'],
    ['an unterminated string', '"abc'],
    ['an escape other than \\" and \\\\', '"a\\x"'],
    ['a byte sequence', ':YWJj:'],
    ['an integer', '42'],
  ])('answers 400 naming the header for %s', async (_case, value) => {
    const fields = organizationFields();
    const response = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...fields, account_id: caller.accountId },
      headers: { 'Idempotency-Key': value },
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      status: 400,
      message:
        'Idempotency-Key: must be a quoted string of 1 to 255 characters, such as "8e03978e-40d5-43e8-bc93-6894a57f9324".',
      field: 'Idempotency-Key',
      code: 'invalidValue',
    });
    expect(await organizationsNamed(fields.name)).toBe(0);
  });

  it.each([
    ['255 characters', `"${'k'.repeat(255)}"`],
    ['escaped quotes and backslashes', '"say \\"hi\\" \\\\ bye"'],
    ['parameters, which are ignored', '"with-parameters";origin=outbox;n=2'],
    ['spaces around it', '  "spaced"  '],
  ])('accepts %s', async (_case, value) => {
    const send = () =>
      call(harness, 'POST', apiPaths.organizations.list, {
        token: caller.token,
        body: { ...organizationFields({ name: `Header ${value.length}` }), account_id: caller.accountId },
        headers: { 'Idempotency-Key': value },
      });
    expect((await send()).status).toBe(201);
    expect((await send()).headers.get('Idempotency-Replayed')).toBe('true');
  });
});

describe('the body of a keyed request', () => {
  it('stays readable for the route, which parses and validates it as without a key', async () => {
    const fields = organizationFields({ name: '  Trimmed by the route  ' });
    const created = await createOrganization(randomUUID(), fields);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Trimmed by the route', city: fields.city });

    const missing = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...organizationFields(), name: undefined, account_id: caller.accountId },
      headers: keyed(randomUUID()),
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/^name: /);

    const malformed = await harness.app.request(apiPaths.organizations.list, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${caller.token}`,
        'Content-Type': 'application/json',
        ...keyed(randomUUID()),
      },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toEqual({
      status: 400,
      message: 'Request body is not valid JSON.',
      code: 'malformed',
    });

    const form = await harness.app.request(apiPaths.organizations.list, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${caller.token}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...keyed(randomUUID()),
      },
      body: 'name=Form',
    });
    expect(form.status).toBe(415);
  });
});

describe('endpoints whose answers carry credentials', () => {
  it('ignore the key on sign-in: every attempt signs in anew and nothing is stored', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const key = randomUUID();
    const tokens = new Set<string>();
    for (const value of [`"${key}"`, `"${key}"`, 'malformed']) {
      const response = await sendJson(
        harness,
        'POST',
        apiPaths.identity.login,
        { username: user.userName, password: user.password },
        { headers: { 'Idempotency-Key': value } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('Idempotency-Replayed')).toBeNull();
      tokens.add(((await response.json()) as { access_token: string }).access_token);
    }
    expect(tokens.size).toBe(3);
    expect(await records(key)).toEqual([]);
  });

  it('ignore the key on refresh: each refresh rotates and nothing is stored', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    let { cookie } = await signIn(harness, user);
    const key = randomUUID();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await sendJson(
        harness,
        'POST',
        apiPaths.identity.refresh,
        {},
        {
          cookie,
          headers: { 'Idempotency-Key': `"${key}"` },
        },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('Idempotency-Replayed')).toBeNull();
      cookie = refreshCookieOf(response);
    }
    expect(await records(key)).toEqual([]);
    const stored = await harness.deps.db
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where(sql<boolean>`convert_from(response_body, 'UTF8') like '%access_token%'`)
      .executeTakeFirstOrThrow();
    expect(stored.count).toBe(0);
  });
});
