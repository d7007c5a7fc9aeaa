import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Organization, OrganizationFieldsInput } from '../../../contract/schemas/organizations.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  addToAccount,
  type Caller,
  call,
  callerWith,
  contactFields,
  organizationFields,
} from './requests.ts';

describe('organizations of an account', () => {
  let harness: TestApp;
  let clock: Date;
  let caller: Caller;
  beforeAll(async () => {
    clock = new Date();
    harness = await createTestApp({ now: () => clock });
    caller = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
  });
  afterAll(() => harness.close());

  /** An account of the caller's own besides the primary one, so a test lists only what it created. */
  async function freshAccount(): Promise<string> {
    const accountId = await harness.createAccount();
    await addToAccount(harness, caller.id, accountId);
    return accountId;
  }

  async function create(accountId: string, fields: OrganizationFieldsInput = organizationFields()) {
    const response = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...fields, account_id: accountId },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Organization;
  }

  async function list(query: string): Promise<{ items: Organization[]; total: number }> {
    const response = await call(harness, 'GET', `${apiPaths.organizations.list}?${query}`, {
      token: caller.token,
    });
    expect(response.status).toBe(200);
    return response.json();
  }

  const names = (page: { items: Organization[] }) => page.items.map((item) => item.name);

  function auditEvents(resourceId: string) {
    return harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', resourceId)
      .orderBy('seq')
      .execute();
  }

  it('creates an organization, answering it with its Location and version, and reads it back', async () => {
    const fields = organizationFields();
    const response = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...fields, account_id: caller.accountId },
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Organization;
    expect(created).toEqual({
      ...fields,
      id: expect.any(String),
      account_id: caller.accountId,
      contacts_count: 0,
      version: 1,
    });
    expect(response.headers.get('Location')).toBe(apiPaths.organizations.byId(created.id));
    expect(response.headers.get('ETag')).toBe('"1"');

    const read = await call(harness, 'GET', apiPaths.organizations.byId(created.id), { token: caller.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('ETag')).toBe('"1"');
    expect(await read.json()).toEqual(created);
  });

  it('trims the fields and stores absent optional ones as empty text', async () => {
    const created = await create(await freshAccount(), {
      name: '  Trimmed Ltd  ',
      address: ' 2 Quay ',
      city: ' Porto ',
      country: 'PT',
    });
    expect(created).toMatchObject({
      name: 'Trimmed Ltd',
      address: '2 Quay',
      address2: '',
      city: 'Porto',
      state: '',
      zip_code: '',
      phone: '',
    });
  });

  it('lists the caller’s primary account when no account is named', async () => {
    const own = await create(caller.accountId);
    const elsewhere = await create(await freshAccount());
    const ids = (await list('limit=99999')).items.map((item) => item.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(elsewhere.id);
  });

  it('sorts by name ignoring case by default, equal names by id, and by the column asked for', async () => {
    const accountId = await freshAccount();
    const made = [
      await create(accountId, organizationFields({ name: 'delta', city: 'Zurich', country: 'CH' })),
      await create(accountId, organizationFields({ name: 'Bravo', city: 'Austin', country: 'US' })),
      await create(accountId, organizationFields({ name: 'charlie', city: 'Madrid', country: 'ES' })),
      await create(accountId, organizationFields({ name: 'Same', city: 'Berlin', country: 'DE' })),
      await create(accountId, organizationFields({ name: 'Same', city: 'Berlin', country: 'DE' })),
    ];
    const sameIds = made
      .filter((item) => item.name === 'Same')
      .map((item) => item.id)
      .sort();

    const byName = await list(`accountId=${accountId}`);
    expect(names(byName)).toEqual(['Bravo', 'charlie', 'delta', 'Same', 'Same']);
    expect(byName.items.slice(3).map((item) => item.id)).toEqual(sameIds);
    expect(names(await list(`accountId=${accountId}&sort=name:desc`))).toEqual([
      'Same',
      'Same',
      'delta',
      'charlie',
      'Bravo',
    ]);
    expect((await list(`accountId=${accountId}&sort=city:asc`)).items.map((item) => item.city)).toEqual([
      'Austin',
      'Berlin',
      'Berlin',
      'Madrid',
      'Zurich',
    ]);
    expect(
      (await list(`accountId=${accountId}&sort=country:desc`)).items.map((item) => item.country),
    ).toEqual(['US', 'ES', 'DE', 'DE', 'CH']);
  });

  it('pages with limit and offset, counting every match, twenty at a time by default', async () => {
    const accountId = await freshAccount();
    for (let index = 0; index < 21; index += 1) {
      await create(accountId, organizationFields({ name: `Org ${String(index).padStart(2, '0')}` }));
    }
    const first = await list(`accountId=${accountId}`);
    expect(first.total).toBe(21);
    expect(first.items).toHaveLength(20);
    const page = await list(`accountId=${accountId}&limit=3&offset=5`);
    expect(page.total).toBe(21);
    expect(names(page)).toEqual(['Org 05', 'Org 06', 'Org 07']);
    const beyond = await list(`accountId=${accountId}&offset=40`);
    expect(beyond).toEqual({ items: [], total: 21, total_is_lower_bound: false });
  });

  it('filters by a part of the name, ignoring case and taking % and _ literally', async () => {
    const accountId = await freshAccount();
    for (const name of ['Acme Security', 'ACME Labs', 'Globex', 'Under_score', 'Underscore']) {
      await create(accountId, organizationFields({ name }));
    }
    const filtered = (text: string) => list(`accountId=${accountId}&name=${encodeURIComponent(text)}`);
    expect(names(await filtered('acme'))).toEqual(['ACME Labs', 'Acme Security']);
    expect(await filtered('acme')).toMatchObject({ total: 2 });
    // Names cannot hold % or \, so a filter made of them matches nothing rather than everything.
    expect(await filtered('%')).toEqual({ items: [], total: 0, total_is_lower_bound: false });
    expect(await filtered('\\')).toEqual({ items: [], total: 0, total_is_lower_bound: false });
    expect(names(await filtered('r_'))).toEqual(['Under_score']);
    expect(names(await filtered('  globex '))).toEqual(['Globex']);
    expect(await filtered('nothing like it')).toEqual({ items: [], total: 0, total_is_lower_bound: false });
  });

  it('counts each organization’s contacts', async () => {
    const accountId = await freshAccount();
    const busy = await create(accountId, organizationFields({ name: 'Busy' }));
    await create(accountId, organizationFields({ name: 'Quiet' }));
    for (const lastName of ['Lovelace', 'Hopper']) {
      const response = await call(harness, 'POST', apiPaths.organizations.contacts(busy.id), {
        token: caller.token,
        body: contactFields({ last_name: lastName }),
      });
      expect(response.status).toBe(201);
    }
    const counts = (await list(`accountId=${accountId}`)).items.map((item) => [
      item.name,
      item.contacts_count,
    ]);
    expect(counts).toEqual([
      ['Busy', 2],
      ['Quiet', 0],
    ]);
    const read = await call(harness, 'GET', apiPaths.organizations.byId(busy.id), { token: caller.token });
    expect(await read.json()).toMatchObject({ contacts_count: 2 });
  });

  it('replaces the fields, bumping the version and the change time, and keeps the account', async () => {
    const accountId = await freshAccount();
    const created = await create(accountId);
    const before = await harness.deps.db
      .selectFrom('organizations')
      .select(['created_at', 'updated_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    clock = new Date(clock.getTime() + 60_000);

    const replacement = organizationFields({ name: 'Renamed Ltd', city: 'Faro', address2: undefined });
    const response = await call(harness, 'PUT', apiPaths.organizations.byId(created.id), {
      token: caller.token,
      body: { ...replacement, account_id: await freshAccount() },
      headers: { 'If-Match': '"1"' },
    });
    expect(response.status).toBe(204);
    // The new version, for a change queued behind this one to build on.
    expect(response.headers.get('ETag')).toBe('"2"');

    const read = await call(harness, 'GET', apiPaths.organizations.byId(created.id), { token: caller.token });
    expect(read.headers.get('ETag')).toBe('"2"');
    expect(await read.json()).toEqual({
      ...replacement,
      address2: '',
      id: created.id,
      account_id: accountId,
      contacts_count: 0,
      version: 2,
    });
    const after = await harness.deps.db
      .selectFrom('organizations')
      .select(['created_at', 'updated_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(after.created_at).toEqual(before.created_at);
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime() + 60_000);
  });

  it('refuses a change based on an older version with 412, and accepts the current one or *', async () => {
    const created = await create(await freshAccount());
    const path = apiPaths.organizations.byId(created.id);
    const put = (ifMatch: string, name: string) =>
      call(harness, 'PUT', path, {
        token: caller.token,
        body: organizationFields({ name }),
        headers: { 'If-Match': ifMatch },
      });

    expect((await put('"1"', 'First change')).status).toBe(204);
    const stale = await put('"1"', 'Lost update');
    expect(stale.status).toBe(412);
    expect(stale.headers.get('ETag')).toBe('"2"');
    expect(await stale.json()).toEqual({
      error: {
        status: 412,
        message: 'Organization has changed since it was read; reload it and apply the change again.',
        field: 'If-Match',
        code: 'preconditionFailed',
      },
      current: { ...created, ...organizationFields({ name: 'First change' }), version: 2 },
    });
    expect((await put('W/"2"', 'Weak tags never match')).status).toBe(412);
    expect((await put('"7", "2"', 'One listed tag is current')).status).toBe(204);
    expect((await put('*', 'Any version')).status).toBe(204);
    const staleDelete = await call(harness, 'DELETE', path, {
      token: caller.token,
      headers: { 'If-Match': '"2"' },
    });
    expect(staleDelete.status).toBe(412);

    const read = await call(harness, 'GET', path, { token: caller.token });
    expect(await read.json()).toMatchObject({ name: 'Any version', version: 4 });
  });

  it('lets exactly one of several concurrent changes based on the same version through', async () => {
    const created = await create(await freshAccount());
    const responses = await Promise.all(
      ['One', 'Two', 'Three', 'Four'].map((name) =>
        call(harness, 'PUT', apiPaths.organizations.byId(created.id), {
          token: caller.token,
          body: organizationFields({ name }),
          headers: { 'If-Match': '"1"' },
        }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([204, 412, 412, 412]);
  });

  /**
   * Sends a request while another transaction deletes a row, committing the deletion only once the
   * request waits for that row: the moment a check-then-insert without a lock would fail.
   */
  async function sendDuringDeletion(
    table: 'accounts' | 'organizations',
    id: string,
    send: () => Promise<Response>,
  ): Promise<Response> {
    const { db } = harness.deps;
    const { response } = await db.transaction().execute(async (trx) => {
      await trx.deleteFrom(table).where('id', '=', id).execute();
      const deleter = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      const pending = send();
      for (let attempt = 0; ; attempt += 1) {
        const blocked = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
          where ${deleter.rows[0]?.pid ?? 0}::int = any(pg_blocking_pids(pid))
        `.execute(db);
        if ((blocked.rows[0]?.waiting ?? 0) > 0) break;
        if (attempt === 500) throw new Error(`The request never waited for the ${table} row.`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { response: pending };
    });
    return response;
  }

  // Only PostgreSQL runs requests side by side; the embedded database serialises every transaction.
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

  it.runIf(onPostgres)('answers 404, not 500, to a creation racing the deletion of its account', async () => {
    const accountId = await freshAccount();
    const response = await sendDuringDeletion('accounts', accountId, () =>
      call(harness, 'POST', apiPaths.organizations.list, {
        token: caller.token,
        body: { ...organizationFields(), account_id: accountId },
      }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { status: 404, message: 'Account not found.', code: 'notFound' },
    });
  });

  it.runIf(onPostgres)(
    'answers 404, not 500, to a contact racing the deletion of its organization',
    async () => {
      const created = await create(await freshAccount());
      const response = await sendDuringDeletion('organizations', created.id, () =>
        call(harness, 'POST', apiPaths.organizations.contacts(created.id), {
          token: caller.token,
          body: contactFields(),
        }),
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { status: 404, message: 'Organization not found.', code: 'notFound' },
      });
    },
  );

  it('deletes an organization with its contacts', async () => {
    const created = await create(await freshAccount());
    for (const firstName of ['Ada', 'Alan']) {
      await call(harness, 'POST', apiPaths.organizations.contacts(created.id), {
        token: caller.token,
        body: contactFields({ first_name: firstName }),
      });
    }
    const response = await call(harness, 'DELETE', apiPaths.organizations.byId(created.id), {
      token: caller.token,
      headers: { 'If-Match': '"1"' },
    });
    expect(response.status).toBe(204);

    const read = await call(harness, 'GET', apiPaths.organizations.byId(created.id), { token: caller.token });
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({
      error: { status: 404, message: 'Organization not found.', code: 'notFound' },
    });
    const remaining = await harness.deps.db
      .selectFrom('organization_contacts')
      .select('id')
      .where('organization_id', '=', created.id)
      .execute();
    expect(remaining).toEqual([]);
    const again = await call(harness, 'DELETE', apiPaths.organizations.byId(created.id), {
      token: caller.token,
      headers: { 'If-Match': '"1"' },
    });
    expect(again.status).toBe(404);
  });

  it('audits creation, change and deletion with the account, the actor and names only', async () => {
    const accountId = await freshAccount();
    const created = await create(
      accountId,
      organizationFields({ name: 'Audited Ltd', phone: '+44 20 7946 0000' }),
    );
    const path = apiPaths.organizations.byId(created.id);
    await call(harness, 'POST', apiPaths.organizations.contacts(created.id), {
      token: caller.token,
      body: contactFields(),
    });
    await call(harness, 'PUT', path, {
      token: caller.token,
      body: organizationFields({ name: 'Audited Group', city: created.city, phone: '+44 20 7946 0001' }),
      headers: { 'If-Match': '"1"' },
    });
    await call(harness, 'DELETE', path, { token: caller.token, headers: { 'If-Match': '"2"' } });

    const events = await auditEvents(created.id);
    expect(
      events.map(({ action, status, resource_type, account_id, actor_id, actor_name, details }) => ({
        action,
        status,
        resource_type,
        account_id,
        actor_id,
        actor_name,
        details,
      })),
    ).toEqual(
      [
        { action: 'CREATE', details: { name: 'Audited Ltd' } },
        {
          action: 'UPDATE',
          details: {
            changes: { name: { from: 'Audited Ltd', to: 'Audited Group' }, phone: { withheld: true } },
          },
        },
        { action: 'DELETE', details: { name: 'Audited Group', contacts_deleted: 1 } },
      ].map((event) => ({
        ...event,
        status: 'success',
        resource_type: 'ORGANIZATION',
        account_id: accountId,
        actor_id: caller.id,
        actor_name: caller.userName,
      })),
    );
    expect(JSON.stringify(events.map((event) => event.details))).not.toContain('7946');
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({ ok: true });
  });

  it('leaves no audit event for a refused change', async () => {
    const created = await create(await freshAccount());
    const viewer = await callerWith(harness, {
      accessScope: 'account',
      accountId: created.account_id,
      permissions: ['VIEW_ORGANIZATION'],
    });
    const response = await call(harness, 'DELETE', apiPaths.organizations.byId(created.id), {
      token: viewer.token,
    });
    expect(response.status).toBe(403);
    expect((await auditEvents(created.id)).map((event) => event.action)).toEqual(['CREATE']);
  });

  it('asks for a token', async () => {
    const created = await create(await freshAccount());
    const requests = [
      call(harness, 'GET', apiPaths.organizations.list),
      call(harness, 'POST', apiPaths.organizations.list, { body: organizationFields() }),
      call(harness, 'GET', apiPaths.organizations.byId(created.id)),
      call(harness, 'PUT', apiPaths.organizations.byId(created.id), { body: organizationFields() }),
      call(harness, 'DELETE', apiPaths.organizations.byId(created.id)),
    ];
    for (const response of await Promise.all(requests)) {
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
  });
});
