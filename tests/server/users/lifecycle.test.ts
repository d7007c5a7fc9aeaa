import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { User, UserCreateInput } from '../../../contract/schemas/users.ts';
import { saveFeatureFlag } from '../../../server/feature-flags/store.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from './helpers.ts';

/** The user lifecycle of decision 035 §1: create, delete, enable, access, and what each writes. */

let harness: TestApp;
let system: Caller;
let accountAdmin: Caller;
let accountA: string;
let roles: Awaited<ReturnType<typeof ensureBuiltInRoles>>;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  roles = await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
  system = await signedInUser(harness, { accessScope: 'system' });
  accountA = await insertAccount(harness, { name: 'Account A' });
  accountAdmin = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
});
afterAll(() => harness.close());

let serial = 0;
function newUser(overrides: Partial<UserCreateInput> = {}): UserCreateInput {
  serial += 1;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada${serial}@example.com`,
    user_name: `ada-${serial}-${Date.now()}`,
    phone: '',
    locale: 'en_US',
    primary_account_id: accountA,
    role_ids: [roles.account_administrator],
    ...overrides,
  };
}

const versionOf = async (id: string, token = system.token) =>
  ((await (await call(harness, 'GET', apiPaths.users.byId(id), { token })).json()) as User).version;

const auditOf = (resourceId: string) =>
  harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'details', 'actor_id'])
    .where('resource_id', '=', resourceId)
    .orderBy('occurred_at')
    .execute();

const outboxOf = (userId: string) =>
  harness.deps.db
    .selectFrom('mail_outbox')
    .select(['kind', 'to_address', 'requested_by'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

describe('POST user', () => {
  it('creates a pending person with its scope from the account, queues the invitation and records CREATE USER', async () => {
    const body = newUser({ phone: '0044 20 7946 0000' });
    const response = await call(harness, 'POST', apiPaths.users.list, { token: accountAdmin.token, body });
    expect(response.status).toBe(201);
    const user = (await response.json()) as User;
    expect(response.headers.get('Location')).toBe(apiPaths.users.byId(user.id));
    expect(response.headers.get('ETag')).toBe(`"${user.version}"`);
    expect(user).toMatchObject({
      user_name: body.user_name,
      access_scope: 'account',
      primary_account_id: accountA,
      status: 'pending',
      email_verified: false,
      phone: '+442079460000',
    });
    expect(await outboxOf(user.id)).toEqual([
      { kind: 'invitation', to_address: body.email, requested_by: accountAdmin.id },
    ]);
    // The record shows the invitation waiting to leave.
    expect(user.last_mail).toMatchObject({ kind: 'invitation', state: 'pending' });
    const [event] = await auditOf(user.id);
    expect(event).toMatchObject({
      action: 'CREATE',
      actor_id: accountAdmin.id,
      details: { user_name: body.user_name, access_scope: 'account', roles: ['Account administrator'] },
    });
  });

  it('answers 409 inUse for a taken user name, whatever its case, and writes nothing', async () => {
    const body = newUser();
    expect((await call(harness, 'POST', apiPaths.users.list, { token: system.token, body })).status).toBe(
      201,
    );
    const again = await call(harness, 'POST', apiPaths.users.list, {
      token: system.token,
      body: { ...newUser(), user_name: body.user_name.toUpperCase() },
    });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({ field: 'user_name', code: 'inUse' });
  });

  it('refuses a role that does not fit the scope (400 roleNotForUser) and single sign-on without a method (409)', async () => {
    const wrongRole = await call(harness, 'POST', apiPaths.users.list, {
      token: system.token,
      body: newUser({ role_ids: [roles.system_administrator] }),
    });
    expect(wrongRole.status).toBe(400);
    expect(await errorOf(wrongRole)).toMatchObject({ field: 'role_ids', code: 'roleNotForUser' });
    const sso = await call(harness, 'POST', apiPaths.users.list, {
      token: system.token,
      body: newUser({ sign_in: 'single_sign_on' }),
    });
    expect(sso.status).toBe(409);
    expect((await errorOf(sso)).code).toBe('noSingleSignOn');
  });

  it('answers 404 for an account or a role out of reach, and 403 permissionNotHeld for a role stronger than the caller', async () => {
    const partner = await insertAccount(harness, { type: 'partner' });
    const foreign = await insertAccount(harness, { partnerAccountId: partner });
    const outOfReach = await call(harness, 'POST', apiPaths.users.list, {
      token: accountAdmin.token,
      body: newUser({ primary_account_id: foreign }),
    });
    expect(outOfReach.status).toBe(404);
    expect((await errorOf(outOfReach)).field).toBe('primary_account_id');
    const foreignRole = await insertCustomRole(harness, foreign);
    const role404 = await call(harness, 'POST', apiPaths.users.list, {
      token: accountAdmin.token,
      body: newUser({ role_ids: [foreignRole] }),
    });
    expect(role404.status).toBe(404);
    const strong = await insertCustomRole(harness, accountA, PERMISSION_NAMES);
    await saveFeatureFlag(harness.deps.db, 'roles', true, harness.deps.now());
    const notHeld = await call(harness, 'POST', apiPaths.users.list, {
      token: accountAdmin.token,
      body: newUser({ role_ids: [strong] }),
    });
    expect(notHeld.status).toBe(403);
    expect(await errorOf(notHeld)).toMatchObject({ field: 'role_ids', code: 'permissionNotHeld' });
  });

  it('keeps aliases for system-scope users only', async () => {
    const response = await call(harness, 'POST', apiPaths.users.list, {
      token: system.token,
      body: newUser({ aliases: { badge: '42' } }),
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('aliases');
  });
});

describe('DELETE user/{id} and DELETE user?ids=', () => {
  it('deletes a managed user with DELETE USER, and honours If-Match', async () => {
    const id = await insertTestUser(harness, { accountId: accountA });
    const stale = await call(harness, 'DELETE', apiPaths.users.byId(id), {
      token: accountAdmin.token,
      headers: { 'If-Match': '"99"' },
    });
    expect(stale.status).toBe(412);
    const response = await call(harness, 'DELETE', apiPaths.users.byId(id), { token: accountAdmin.token });
    expect(response.status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.users.byId(id), { token: system.token })).status).toBe(404);
    expect((await auditOf(id)).map((event) => event.action)).toEqual(['DELETE']);
  });

  it('refuses oneself (403 ownUser)', async () => {
    const response = await call(harness, 'DELETE', apiPaths.users.byId(accountAdmin.id), {
      token: accountAdmin.token,
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('ownUser');
  });

  it('deletes several all or none: one user out of reach deletes nobody', async () => {
    const first = await insertTestUser(harness, { accountId: accountA });
    const second = await insertTestUser(harness, { accountId: accountA });
    const other = await insertAccount(harness);
    const foreign = await insertTestUser(harness, { accountId: other });
    const refused = await call(harness, 'DELETE', `${apiPaths.users.list}?ids=${first},${foreign}`, {
      token: accountAdmin.token,
    });
    expect(refused.status).toBe(404);
    expect((await call(harness, 'GET', apiPaths.users.byId(first), { token: system.token })).status).toBe(
      200,
    );
    const done = await call(harness, 'DELETE', `${apiPaths.users.list}?ids=${first},${second}`, {
      token: accountAdmin.token,
    });
    expect(done.status).toBe(204);
    for (const id of [first, second]) {
      expect((await call(harness, 'GET', apiPaths.users.byId(id), { token: system.token })).status).toBe(404);
    }
  });

  it('answers 400 for more than 100 ids', async () => {
    const ids = Array.from({ length: 101 }, (_, index) => `id-${index}`).join(',');
    const response = await call(harness, 'DELETE', `${apiPaths.users.list}?ids=${ids}`, {
      token: system.token,
    });
    expect(response.status).toBe(400);
  });
});

describe('PUT user/{id}/enable', () => {
  it('needs If-Match, disables the user with its sessions ended, and enables it again', async () => {
    const target = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
    const path = apiPaths.users.enable(target.id);
    const without = await call(harness, 'PUT', path, { token: accountAdmin.token, body: { enabled: false } });
    expect(without.status).toBe(428);
    const version = await versionOf(target.id);
    const disabled = await call(harness, 'PUT', path, {
      token: accountAdmin.token,
      body: { enabled: false },
      headers: { 'If-Match': `"${version}"` },
    });
    expect(disabled.status).toBe(204);
    expect(disabled.headers.get('ETag')).toBe(`"${version + 1}"`);
    const sessions = await harness.deps.db
      .selectFrom('sessions')
      .select(['revoked_at', 'revoked_reason'])
      .where('user_id', '=', target.id)
      .execute();
    expect(sessions.every((session) => session.revoked_reason === 'user_disabled')).toBe(true);
    expect((await call(harness, 'GET', apiPaths.profile, { token: target.token })).status).toBe(401);
    const event = (await auditOf(target.id)).find((each) => each.action === 'UPDATE');
    expect(event?.details).toEqual({ changes: { enabled: { from: true, to: false } }, sessions_ended: 1 });

    const enabled = await call(harness, 'PUT', path, {
      token: accountAdmin.token,
      body: { enabled: true },
      headers: { 'If-Match': `"${version + 1}"` },
    });
    expect(enabled.status).toBe(204);
    // Enabling again never revives a session.
    expect((await call(harness, 'GET', apiPaths.profile, { token: target.token })).status).toBe(401);
  });
});

describe('PUT user/{id}/access', () => {
  it('replaces the roles and accounts, recording names and ids, and changes nothing twice', async () => {
    const viewer = await insertCustomRole(harness, accountA, ['VIEW_USER'], 'Viewer');
    const id = await insertTestUser(harness, { accountId: accountA, roleIds: [roles.read_only_auditor] });
    const partner = await insertAccount(harness, { type: 'partner' });
    const extra = await insertAccount(harness, { partnerAccountId: partner });
    const version = await versionOf(id);
    const body = { account_ids: [extra], role_ids: [viewer] };
    const response = await call(harness, 'PUT', apiPaths.users.access(id), {
      token: system.token,
      body,
      headers: { 'If-Match': `"${version}"` },
    });
    expect(response.status).toBe(204);
    const user = (await (
      await call(harness, 'GET', apiPaths.users.byId(id), { token: system.token })
    ).json()) as User;
    expect(user.roles.map((role) => role.name)).toEqual(['Viewer']);
    expect(user.accounts.map((account) => account.id).sort()).toEqual([accountA, extra].sort());
    const [event] = await auditOf(id);
    expect(event?.details).toEqual({
      changes: {
        roles: { from: ['Read-only auditor'], to: ['Viewer'] },
        accounts: { from: [], to: [extra] },
      },
    });
    const again = await call(harness, 'PUT', apiPaths.users.access(id), {
      token: system.token,
      body,
      headers: { 'If-Match': `"${user.version}"` },
    });
    expect(again.status).toBe(204);
    expect(await auditOf(id)).toHaveLength(1);
  });
});

describe('mail requests', () => {
  it('resends the invitation while no password exists, then 429 with Retry-After within a minute', async () => {
    const id = await insertTestUser(harness, { accountId: accountA, pending: true });
    const first = await call(harness, 'PUT', apiPaths.users.verification(id), { token: accountAdmin.token });
    expect(first.status).toBe(204);
    const second = await call(harness, 'PUT', apiPaths.users.verification(id), { token: accountAdmin.token });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await outboxOf(id)).map((mail) => mail.kind)).toEqual(['invitation']);
  });

  it('sends a reset to a verified address with SEND_RESET_PASSWORD, and 409 emailNotVerified otherwise', async () => {
    const verified = await insertTestUser(harness, { accountId: accountA });
    const response = await call(harness, 'PUT', apiPaths.users.resetMail(verified), {
      token: accountAdmin.token,
    });
    expect(response.status).toBe(204);
    expect((await outboxOf(verified)).map((mail) => mail.kind)).toEqual(['reset_password']);
    expect((await auditOf(verified)).map((event) => event.action)).toEqual(['SEND_RESET_PASSWORD']);
    const pending = await insertTestUser(harness, { accountId: accountA, pending: true });
    const refused = await call(harness, 'PUT', apiPaths.users.resetMail(pending), {
      token: accountAdmin.token,
    });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe('emailNotVerified');
  });

  it('invites to standard login only without a password (409 hasPassword)', async () => {
    const withPassword = await harness.createUser({ accessScope: 'account', accountId: accountA });
    const refused = await call(harness, 'PUT', apiPaths.users.standardLogin(withPassword.id), {
      token: accountAdmin.token,
    });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe('hasPassword');
    const without = await insertTestUser(harness, { accountId: accountA });
    expect(
      (await call(harness, 'PUT', apiPaths.users.standardLogin(without), { token: accountAdmin.token }))
        .status,
    ).toBe(204);
    expect((await outboxOf(without)).map((mail) => mail.kind)).toEqual(['standard_login']);
  });

  it('sends the single sign-on mail only to a user with a single sign-on name (409 noSingleSignOn)', async () => {
    const id = await insertTestUser(harness, { accountId: accountA });
    const refused = await call(harness, 'PUT', apiPaths.users.resendSsoEmail(id), {
      token: accountAdmin.token,
    });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe('noSingleSignOn');
    await harness.deps.db
      .updateTable('users')
      .set({ saml_username: 'ada@idp' })
      .where('id', '=', id)
      .execute();
    expect(
      (await call(harness, 'PUT', apiPaths.users.resendSsoEmail(id), { token: accountAdmin.token })).status,
    ).toBe(204);
    expect((await outboxOf(id)).map((mail) => mail.kind)).toEqual(['sso_sign_in']);
  });

  it('unlocks a locked user, else clears the enrollment, each with its mail and UPDATE USER', async () => {
    const id = await insertTestUser(harness, { accountId: accountA });
    const later = new Date(harness.deps.now().getTime() + 3_600_000);
    await harness.deps.db
      .updateTable('users')
      .set({ mfa_enrolled_at: harness.deps.now(), mfa_locked_until: later })
      .where('id', '=', id)
      .execute();
    expect(
      (await call(harness, 'DELETE', apiPaths.users.mfa(id), { token: accountAdmin.token })).status,
    ).toBe(204);
    let user = (await (
      await call(harness, 'GET', apiPaths.users.byId(id), { token: system.token })
    ).json()) as User;
    expect(user.mfa).toEqual({ enrolled: true, locked: false });
    await harness.deps.db.deleteFrom('mail_outbox').where('user_id', '=', id).execute();
    expect(
      (await call(harness, 'DELETE', apiPaths.users.mfa(id), { token: accountAdmin.token })).status,
    ).toBe(204);
    user = (await (
      await call(harness, 'GET', apiPaths.users.byId(id), { token: system.token })
    ).json()) as User;
    expect(user.mfa).toEqual({ enrolled: false, locked: false });
    expect((await outboxOf(id)).map((mail) => mail.kind)).toEqual(['mfa_reset']);
    expect(
      (await auditOf(id)).map((event) => Object.keys((event.details as { changes: object }).changes)),
    ).toEqual([['mfa_locked'], ['mfa_enrolled']]);
    // Nothing left to reset: said so, and neither a mail nor an event claims otherwise.
    const nothing = await call(harness, 'DELETE', apiPaths.users.mfa(id), { token: accountAdmin.token });
    expect(nothing.status).toBe(409);
    expect((await errorOf(nothing)).code).toBe('noTwoFactor');
    expect(await outboxOf(id)).toHaveLength(1);
    expect(await auditOf(id)).toHaveLength(2);
    const own = await call(harness, 'DELETE', apiPaths.users.mfa(accountAdmin.id), {
      token: accountAdmin.token,
    });
    expect(own.status).toBe(403);
    expect((await errorOf(own)).code).toBe('ownUser');
  });
});

describe('PUT user/{id}/defaultManager and PUT user/{id}/agreement', () => {
  it('sets an application the user holds a role in, and refuses one it does not', async () => {
    const good = await call(harness, 'PUT', apiPaths.users.defaultManager(accountAdmin.id, '/account'), {
      token: accountAdmin.token,
    });
    expect(good.status).toBe(204);
    const user = (await (
      await call(harness, 'GET', apiPaths.users.byId(accountAdmin.id), { token: system.token })
    ).json()) as User;
    expect(user.default_application).toBe('account_manager');
    const bad = await call(harness, 'PUT', apiPaths.users.defaultManager(accountAdmin.id, '/iot'), {
      token: accountAdmin.token,
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).field).toBe('appUrl');
  });

  it('records the agreement for oneself only (403 ownUserOnly for anyone else)', async () => {
    const own = await call(harness, 'PUT', apiPaths.users.agreement(accountAdmin.id), {
      token: accountAdmin.token,
      body: { locale: 'de_DE' },
    });
    expect(own.status).toBe(204);
    const events = await auditOf(accountAdmin.id);
    expect(events.at(-1)).toMatchObject({ action: 'TERMS_AND_CONDITIONS', details: { locale: 'de_DE' } });
    const other = await call(harness, 'PUT', apiPaths.users.agreement(accountAdmin.id), {
      token: system.token,
      body: { locale: 'de_DE' },
    });
    expect(other.status).toBe(403);
    expect((await errorOf(other)).code).toBe('ownUserOnly');
  });
});
