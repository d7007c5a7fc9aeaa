import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import type { User, UserUpdateInput } from '../../../contract/schemas/users.ts';
import { signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from './helpers.ts';

/** PUT user/{id} (decision 035 §1): the administrator's edit and the own profile's. */

let harness: TestApp;
let system: Caller;
let accountAdmin: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  system = await signedInUser(harness, { accessScope: 'system' });
  accountAdmin = await signedInUser(harness, { accessScope: 'account' });
});
afterAll(() => harness.close());

async function stored(id: string) {
  return harness.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The update that keeps every field of the user as it is. */
async function unchanged(id: string): Promise<UserUpdateInput> {
  const row = await stored(id);
  return {
    first_name: row.first_name,
    last_name: row.last_name,
    user_name: row.user_name,
    email: row.email,
    phone: row.phone ?? '',
    locale: row.locale as UserUpdateInput['locale'],
  };
}

async function put(caller: Caller, id: string, body: unknown, version?: number | null) {
  const current = version === undefined ? (await stored(id)).version : version;
  return call(harness, 'PUT', apiPaths.users.byId(id), {
    token: caller.token,
    body,
    headers: current === null ? {} : { 'If-Match': `"${current}"` },
  });
}

async function auditDetails(id: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'details', 'actor_id'])
    .where('resource_type', '=', 'USER')
    .where('resource_id', '=', id)
    .orderBy('seq')
    .execute();
}

async function mails(userId: string) {
  return harness.deps.db
    .selectFrom('mail_outbox')
    .select(['kind', 'to_address', 'requested_by'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('kind')
    .execute();
}

describe('PUT user/{id}', () => {
  it('saves one’s own fields without any user permission, and discloses in the trail only names and locale', async () => {
    const auditor = await signedInUser(harness, { accessScope: 'account', roles: ['read_only_auditor'] });
    const body = {
      ...(await unchanged(auditor.id)),
      first_name: 'Grace',
      user_name: `${auditor.userName}-new`,
      phone: '0049 (30) 123-45.67',
      locale: 'de_DE' as const,
    };
    const before = (await stored(auditor.id)).version;
    const response = await put(auditor, auditor.id, body);
    expect(response.status).toBe(204);
    expect(response.headers.get('ETag')).toBe(`"${before + 1}"`);
    const row = await stored(auditor.id);
    expect(row).toMatchObject({
      first_name: 'Grace',
      user_name: `${auditor.userName}-new`,
      user_name_key: `${auditor.userName}-new`.toLowerCase(),
      phone: '+49301234567',
      locale: 'de_DE',
    });
    const events = await auditDetails(auditor.id);
    expect(events.at(-1)).toEqual({
      action: 'UPDATE',
      actor_id: auditor.id,
      details: {
        changes: {
          first_name: { from: 'Test', to: 'Grace' },
          user_name: { from: auditor.userName, to: `${auditor.userName}-new` },
          phone: { withheld: true },
          locale: { from: 'en_US', to: 'de_DE' },
        },
      },
    });
    // The profile shows the saved fields with the new version.
    const profile = await call(harness, 'GET', apiPaths.profile, { token: auditor.token });
    expect(profile.headers.get('ETag')).toBe(`"${before + 1}"`);
    expect((await profile.json()) as Profile).toMatchObject({
      first_name: 'Grace',
      phone: '+49301234567',
      version: before + 1,
    });
  });

  it('writes, records and sends nothing for a change that changes nothing', async () => {
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const before = await stored(user);
    const response = await put(accountAdmin, user, await unchanged(user));
    expect(response.status).toBe(204);
    expect((await stored(user)).version).toBe(before.version);
    expect(await auditDetails(user)).toEqual([]);
    expect(await mails(user)).toEqual([]);
  });

  it('requires If-Match (428) and refuses an old version with the current user (412)', async () => {
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const body = { ...(await unchanged(user)), first_name: 'Changed' };
    const missing = await put(accountAdmin, user, body, null);
    expect(missing.status).toBe(428);
    expect((await errorOf(missing)).code).toBe('preconditionRequired');
    const old = await put(accountAdmin, user, body, 0);
    expect(old.status).toBe(412);
    const conflict = (await old.json()) as { current: User };
    expect(conflict.current).toMatchObject({ id: user, first_name: 'Test' });
    expect((await stored(user)).first_name).toBe('Test');
  });

  it('answers 409 inUse on user_name for a name another user has, whatever its capitals', async () => {
    const other = await insertTestUser(harness, {
      accountId: accountAdmin.accountId,
      userName: 'Taken-Name',
    });
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const response = await put(accountAdmin, user, { ...(await unchanged(user)), user_name: 'taken-name' });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({ field: 'user_name', code: 'inUse' });
    // A user may write their own name in other capitals.
    const own = await put(accountAdmin, other, { ...(await unchanged(other)), user_name: 'TAKEN-NAME' });
    expect(own.status).toBe(204);
  });

  it('keeps aliases for system-scope users only, replacing them as a whole', async () => {
    const systemUser = await insertTestUser(harness, {
      accountId: system.accountId,
      accessScope: 'system',
    });
    const aliases = { employee_no: '4711', 'mail.alias': 'ada@example.com' };
    const saved = await put(system, systemUser, { ...(await unchanged(systemUser)), aliases });
    expect(saved.status).toBe(204);
    expect((await stored(systemUser)).aliases).toEqual(aliases);
    const events = await auditDetails(systemUser);
    expect(events.at(-1)?.details).toEqual({ changes: { aliases: { withheld: true } } });
    // Absent aliases stay as they are; the same aliases in another order change nothing.
    const kept = await put(system, systemUser, await unchanged(systemUser));
    expect(kept.status).toBe(204);
    expect((await stored(systemUser)).aliases).toEqual(aliases);
    const reordered = await put(system, systemUser, {
      ...(await unchanged(systemUser)),
      aliases: { 'mail.alias': 'ada@example.com', employee_no: '4711' },
    });
    expect(reordered.status).toBe(204);
    expect(await auditDetails(systemUser)).toHaveLength(1);

    const accountUser = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const refused = await put(accountAdmin, accountUser, { ...(await unchanged(accountUser)), aliases });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ field: 'aliases', code: 'invalidValue' });
    const none = await put(accountAdmin, accountUser, { ...(await unchanged(accountUser)), aliases: {} });
    expect(none.status).toBe(204);
  });

  it('refuses aliases breaking the contract’s patterns and limits with their codes', async () => {
    const systemUser = await insertTestUser(harness, { accountId: system.accountId, accessScope: 'system' });
    const base = await unchanged(systemUser);
    const cases: [Record<string, string>, string][] = [
      [{ 'bad id!': 'x' }, 'invalidIdentifier'],
      [{ good: 'no <tags>' }, 'invalidValue'],
      [{ ['x'.repeat(31)]: 'v' }, 'tooLong'],
      [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`id${i}`, 'v'])), 'tooManyAliases'],
    ];
    for (const [aliases, code] of cases) {
      const response = await put(system, systemUser, { ...base, aliases });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe(code);
      expect(error.field?.startsWith('aliases')).toBe(true);
    }
  });

  it('on a new e-mail address: unverified, open links revoked, a verification to the new and a notice to the old, in one transaction', async () => {
    const user = await insertTestUser(harness, {
      accountId: accountAdmin.accountId,
      email: 'old@example.com',
    });
    const now = harness.deps.now();
    await harness.deps.db
      .insertInto('user_tokens')
      .values({
        token_hash: `hash-${user}`,
        user_id: user,
        purpose: 'reset_password',
        email: 'old@example.com',
        created_at: now,
        expires_at: new Date(now.getTime() + 3_600_000),
      })
      .execute();
    const response = await put(accountAdmin, user, { ...(await unchanged(user)), email: 'new@example.com' });
    expect(response.status).toBe(204);
    const row = await stored(user);
    expect(row.email).toBe('new@example.com');
    expect(row.email_verified_at).toBeNull();
    const link = await harness.deps.db
      .selectFrom('user_tokens')
      .select('revoked_at')
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    expect(link.revoked_at).not.toBeNull();
    expect(await mails(user)).toEqual([
      { kind: 'email_changed', to_address: 'old@example.com', requested_by: accountAdmin.id },
      { kind: 'verify_email', to_address: 'new@example.com', requested_by: accountAdmin.id },
    ]);
    expect((await auditDetails(user)).at(-1)?.details).toEqual({ changes: { email: { withheld: true } } });

    // The same address in other capitals is no new mailbox: still verified by then, no mail.
    await harness.deps.db
      .updateTable('users')
      .set({ email_verified_at: now })
      .where('id', '=', user)
      .execute();
    const recased = await put(accountAdmin, user, { ...(await unchanged(user)), email: 'NEW@example.com' });
    expect(recased.status).toBe(204);
    expect((await stored(user)).email_verified_at).not.toBeNull();
    expect(await mails(user)).toHaveLength(2);
  });

  it('a failed change sends no mail: the taken name rolls the address change back', async () => {
    await insertTestUser(harness, { accountId: accountAdmin.accountId, userName: 'someone-else' });
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const response = await put(accountAdmin, user, {
      ...(await unchanged(user)),
      email: 'elsewhere@example.com',
      user_name: 'someone-else',
    });
    expect(response.status).toBe(409);
    expect(await mails(user)).toEqual([]);
    expect((await stored(user)).email).not.toBe('elsewhere@example.com');
  });

  it('ignores access_scope, enabled and role_ids smuggled into the body', async () => {
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const before = await stored(user);
    const response = await put(accountAdmin, user, {
      ...(await unchanged(user)),
      first_name: 'Smuggler',
      access_scope: 'system',
      enabled: false,
      role_ids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(response.status).toBe(204);
    const after = await stored(user);
    expect(after).toMatchObject({ first_name: 'Smuggler', access_scope: before.access_scope, active: true });
    const roles = await harness.deps.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', user)
      .execute();
    expect(roles).toEqual([]);
  });

  it('answers 400 for malformed fields, naming them', async () => {
    const user = await insertTestUser(harness, { accountId: accountAdmin.accountId });
    const base = await unchanged(user);
    for (const [patch, field, code] of [
      [{ email: 'not-an-address' }, 'email', 'invalidEmail'],
      [{ phone: 'call me' }, 'phone', 'invalidPhone'],
      [{ locale: 'xx_XX' }, 'locale', 'invalidLocale'],
      [{ user_name: '' }, 'user_name', undefined],
    ] as const) {
      const response = await put(accountAdmin, user, { ...base, ...patch });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.field).toBe(field);
      if (code) expect(error.code).toBe(code);
    }
  });
});
