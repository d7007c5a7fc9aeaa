import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNT_NAME } from '../../../contract/constants.ts';
import { apiPaths } from '../../../contract/paths.ts';
import { BUILT_IN_ROLES, PERMISSION_NAMES } from '../../../contract/permissions.ts';
import { fieldError } from '../errors.ts';
import { send, sendJson, signIn } from '../identity/requests.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';

function sortedEntries(names: readonly string[]) {
  return [...names].sort().map((name) => ({ name }));
}

describe('the signed-in user’s profile', () => {
  let harness: TestApp;
  let administrator: TestUser;
  let administratorToken: string;
  let accountAdministrator: TestUser;
  let accountAdministratorToken: string;
  beforeAll(async () => {
    harness = await createTestApp();
    administrator = await harness.createUser({ accessScope: 'system', userName: 'ada' });
    administratorToken = (await signIn(harness, administrator)).accessToken;
    accountAdministrator = await harness.createUser({ accessScope: 'account' });
    accountAdministratorToken = (await signIn(harness, accountAdministrator)).accessToken;
  });
  afterAll(() => harness.close());

  const get = (path: string, token: string) => send(harness, 'GET', path, { token });

  it('asks for a token', async () => {
    for (const path of [apiPaths.profile, apiPaths.permissions, apiPaths.userApplications]) {
      expect((await send(harness, 'GET', path)).status).toBe(401);
    }
  });

  it('lists no applications while no licence is installed', async () => {
    const profile = await (await get(apiPaths.profile, administratorToken)).json();
    expect(profile.applications).toEqual([]);
    expect(await (await get(apiPaths.userApplications, administratorToken)).json()).toEqual({
      items: [],
      total: 0,
    });
  });

  it('describes a system administrator: the System Account, every permission and the licensed applications', async () => {
    await harness.installLicence({ seats: { account_manager: -1, ca_manager: 0 } });
    const response = await get(apiPaths.profile, administratorToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: administrator.id,
      access_scope: 'system',
      primary_account_id: administrator.accountId,
      accounts: [
        {
          id: administrator.accountId,
          display_name: SYSTEM_ACCOUNT_NAME,
          active: true,
          service_period: { to: null },
        },
      ],
      permissions: sortedEntries(PERMISSION_NAMES),
      has_onelogin_id: false,
      onelogin_url: null,
      locale: 'en_US',
      first_name: 'Test',
      last_name: 'User',
      email: 'ada@example.com',
      user_name: 'ada',
      date_format: null,
      applications: [
        {
          app_code: 'account_manager',
          roles: [{ name: BUILT_IN_ROLES.system_administrator.name, code: 'system_administrator' }],
        },
      ],
      phone: null,
      aliases: {},
      saml_username: null,
      oidc_username: null,
      email_verified: true,
      default_application: null,
      version: 1,
    });
    expect(response.headers.get('ETag')).toBe('"1"');
  });

  it('lists an account user’s primary account first, then the accounts they were added to', async () => {
    const other = await harness.createAccount('Aardvark Ltd');
    await harness.deps.db
      .insertInto('user_accounts')
      .values({ user_id: accountAdministrator.id, account_id: other })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const profile = await (await get(apiPaths.profile, accountAdministratorToken)).json();
    expect(profile.accounts.map((account: { id: string }) => account.id)).toEqual([
      accountAdministrator.accountId,
      other,
    ]);
    expect(profile.permissions).toEqual(sortedEntries(BUILT_IN_ROLES.account_administrator.permissions));
  });

  it('lists the caller’s permissions for their own scope and a reachable account', async () => {
    const query = `?accessScope=account&accountId=${accountAdministrator.accountId}`;
    const response = await get(`${apiPaths.permissions}${query}`, accountAdministratorToken);
    expect(response.status).toBe(200);
    const permissions = sortedEntries(BUILT_IN_ROLES.account_administrator.permissions);
    expect(await response.json()).toEqual({ items: permissions, total: permissions.length });
  });

  it('refuses permissions for another scope with 403 and for an account out of reach with 404', async () => {
    const otherScope = await get(`${apiPaths.permissions}?accessScope=system`, accountAdministratorToken);
    expect(otherScope.status).toBe(403);

    const stranger = await harness.createAccount();
    const outOfReach = await get(
      `${apiPaths.permissions}?accessScope=account&accountId=${stranger}`,
      accountAdministratorToken,
    );
    expect(outOfReach.status).toBe(404);
    expect(await outOfReach.json()).toEqual({
      error: { status: 404, message: 'Account not found.', code: 'notFound' },
    });

    const anyForSystem = await get(
      `${apiPaths.permissions}?accessScope=system&accountId=${stranger}`,
      administratorToken,
    );
    expect(anyForSystem.status).toBe(200);
  });

  it('names the bad query field', async () => {
    const response = await get(`${apiPaths.permissions}?accessScope=galaxy`, administratorToken);
    expect(await response.json()).toEqual({
      error: fieldError('accessScope: has a value that is not allowed'),
    });
    const badAccount = await get(`${apiPaths.userApplications}?accountId=123`, administratorToken);
    expect(await badAccount.json()).toEqual({
      error: fieldError('accountId: has a value that is not allowed'),
    });
  });

  it('lists the licensed applications the user has roles in, with their names', async () => {
    const response = await get(
      `${apiPaths.userApplications}?accountId=${administrator.accountId}`,
      administratorToken,
    );
    expect(await response.json()).toEqual({
      items: [
        {
          id: 'account_manager',
          app_code: 'account_manager',
          app_name: 'Account Manager',
          context: '/account',
        },
      ],
      total: 1,
    });
  });
});

describe('changing a user’s language', () => {
  let harness: TestApp;
  let accountAdministrator: TestUser;
  let token: string;
  beforeAll(async () => {
    harness = await createTestApp();
    accountAdministrator = await harness.createUser({ accessScope: 'account' });
    token = (await signIn(harness, accountAdministrator)).accessToken;
  });
  afterAll(() => harness.close());

  const putLocale = (userId: string, locale: string, accessToken = token) =>
    send(harness, 'PUT', apiPaths.userLocale(userId, locale), { token: accessToken });
  const localeOf = async (userId: string) =>
    (
      await harness.deps.db
        .selectFrom('users')
        .select('locale')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).locale;

  it('changes the caller’s own language and audits it', async () => {
    const response = await putLocale(accountAdministrator.id, 'de_DE');
    expect(response.status).toBe(204);
    expect(await localeOf(accountAdministrator.id)).toBe('de_DE');
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'UPDATE')
      .where('resource_id', '=', accountAdministrator.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      resource_type: 'USER',
      details: { changes: { locale: { from: 'en_US', to: 'de_DE' } } },
    });
  });

  it('refuses a language the platform does not have, naming the locale', async () => {
    const response = await putLocale(accountAdministrator.id, 'xx_XX');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: fieldError('locale: is not a supported language') });
  });

  it('lets a user manager change the language of a user in their account', async () => {
    const colleague = await harness.createUser({
      accessScope: 'account',
      accountId: accountAdministrator.accountId,
    });
    expect((await putLocale(colleague.id, 'ja_JP')).status).toBe(204);
    expect(await localeOf(colleague.id)).toBe('ja_JP');
  });

  it('refuses a user without the user-management permission with 403', async () => {
    const auditor = await harness.createUser({
      accessScope: 'account',
      accountId: accountAdministrator.accountId,
      roles: ['read_only_auditor'],
    });
    const auditorToken = (await signIn(harness, auditor)).accessToken;
    const response = await putLocale(accountAdministrator.id, 'fr_FR', auditorToken);
    expect(response.status).toBe(403);
    expect(await localeOf(accountAdministrator.id)).toBe('de_DE');
  });

  it('answers 404 for a user in an account out of reach, and for one that does not exist', async () => {
    const stranger = await harness.createUser({ accessScope: 'account' });
    expect((await putLocale(stranger.id, 'fr_FR')).status).toBe(404);
    expect(await localeOf(stranger.id)).toBe('en_US');
    expect((await putLocale('00000000-0000-4000-8000-000000000000', 'fr_FR')).status).toBe(404);
  });

  it('asks for a token', async () => {
    const response = await sendJson(
      harness,
      'PUT',
      apiPaths.userLocale(accountAdministrator.id, 'fr_FR'),
      {},
    );
    expect(response.status).toBe(401);
  });
});
