import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { RoleList, User, UserList } from '../../../contract/schemas/users.ts';
import { USER_SORT_COLUMNS } from '../../../contract/sort-columns.ts';
import { USER_CSV_COLUMNS } from '../../../contract/user-csv.ts';
import { parseCsv } from '../../../e2e/support/csv.ts';
import { fixedClock, insertAccount, signedInUser, TODAY } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { addToAccount, type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from './helpers.ts';

/**
 * The users list, its export and the reads of one user: every filter, every sort order both ways,
 * paging and totals, the 400 for bad queries, and the reach that no filter, sort or export widens.
 */

let harness: TestApp;
let system: Caller;
let partner: Caller;
let accountAdmin: Caller;
let partnerAccount: string;
let accountA: string;
let foreignAccount: string;
let addedAccount: string;
let roleA: string;
let foreignRole: string;
const ids = {} as Record<'ada' | 'grace' | 'zed' | 'foreign' | 'added', string>;
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 9));

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system', userName: 'sys-admin' });
  partnerAccount = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partnerAccount });
  foreignAccount = await insertAccount(harness, { name: 'Foreign B', partnerAccountId: partnerQ });
  addedAccount = await insertAccount(harness, { name: 'Added C' });
  partner = await signedInUser(harness, {
    accessScope: 'partner',
    accountId: partnerAccount,
    userName: 'p-admin',
  });
  accountAdmin = await signedInUser(harness, {
    accessScope: 'account',
    accountId: accountA,
    userName: 'a-admin',
  });
  // Added to C: sees the account, but administers none of its people (decision 018 §3.1).
  await addToAccount(harness, accountAdmin.id, addedAccount);
  roleA = await insertCustomRole(harness, accountA, ['VIEW_USER'], 'Auditors of A');
  foreignRole = await insertCustomRole(harness, foreignAccount, ['VIEW_USER'], 'Auditors of B');
  ids.ada = await insertTestUser(harness, {
    accountId: accountA,
    userName: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@analytical.example',
    roleIds: [roleA],
    createdAt: at(1),
    lastSignInAt: at(20),
  });
  ids.grace = await insertTestUser(harness, {
    accountId: accountA,
    userName: 'Grace.H',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@navy.example',
    pending: true,
    createdAt: at(2),
  });
  ids.zed = await insertTestUser(harness, {
    accountId: partnerAccount,
    accessScope: 'partner',
    userName: 'zed',
    firstName: 'Zed',
    lastName: 'Alpha',
    email: 'zed@partner.example',
    active: false,
    createdAt: at(3),
    lastSignInAt: at(10),
  });
  ids.foreign = await insertTestUser(harness, {
    accountId: foreignAccount,
    userName: 'foreign-lovelace',
    firstName: 'Augusta',
    lastName: 'Lovelace',
    roleIds: [foreignRole],
    createdAt: at(4),
  });
  ids.added = await insertTestUser(harness, {
    accountId: addedAccount,
    userName: 'added-one',
    createdAt: at(5),
  });
  // A user of A also added to the foreign account: the partner must not learn that account from it.
  await addToAccount(harness, ids.ada, foreignAccount);
});
afterAll(() => harness.close());

const get = (caller: Caller, path: string) => call(harness, 'GET', path, { token: caller.token });

async function list(caller: Caller, query = ''): Promise<UserList> {
  const response = await get(caller, `${apiPaths.users.list}${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as UserList;
}

const userNames = async (caller: Caller, query: string) =>
  (await list(caller, `?limit=100&${query}`)).items.map((item) => item.user_name);

describe('who reaches which users', () => {
  it('gives system scope every user', async () => {
    expect((await list(system, '?limit=100')).total).toBe(8);
  });

  it('gives a partner the users of its account and the accounts under it', async () => {
    expect((await userNames(partner, '')).sort()).toEqual(['Grace.H', 'a-admin', 'ada', 'p-admin', 'zed']);
  });

  it('gives an account administrator its own account’s users, not those of an account it was added to', async () => {
    expect((await userNames(accountAdmin, '')).sort()).toEqual(['Grace.H', 'a-admin', 'ada']);
    expect((await get(accountAdmin, apiPaths.users.byId(ids.added))).status).toBe(404);
    expect((await get(accountAdmin, `${apiPaths.users.list}?account_id=${addedAccount}`)).status).toBe(404);
    // The account itself stays visible: reach over users is the narrower of the two.
    expect((await get(accountAdmin, apiPaths.tenants.byId(addedAccount))).status).toBe(200);
  });

  it('no longer lets an account one was merely added to bring its users’ language within reach', async () => {
    const response = await call(harness, 'PUT', apiPaths.userLocale(ids.added, 'de_DE'), {
      token: accountAdmin.token,
    });
    expect(response.status).toBe(404);
  });
});

describe('a listed user', () => {
  it('carries its primary account, status, verification, roles and times', async () => {
    const page = await list(system, '?q=analytical');
    expect(page).toEqual({
      items: [
        {
          id: ids.ada,
          first_name: 'Ada',
          last_name: 'Lovelace',
          user_name: 'ada',
          email: 'ada@analytical.example',
          access_scope: 'account',
          primary_account: { id: accountA, name: 'Account A' },
          status: 'active',
          email_verified: true,
          roles: [{ id: roleA, name: 'Auditors of A', code: null }],
          last_sign_in_at: at(20).toISOString(),
          created_at: at(1).toISOString(),
          version: 1,
        },
      ],
      total: 1,
      total_is_lower_bound: false,
    });
  });
});

describe('filters', () => {
  it.each([
    ['q=LOVELACE', ['ada']],
    ['q=navy', ['Grace.H']],
    ['q=grace.h', ['Grace.H']],
    ['q=%25', []],
    ['q=_', []],
    ['status=pending', ['Grace.H']],
    ['status=disabled', ['zed']],
    ['scope=partner', ['p-admin', 'zed']],
    [`role_id=ROLE_A`, ['ada']],
    [`account_id=ACCOUNT_A`, ['Grace.H', 'a-admin', 'ada']],
    [`account_id=ACCOUNT_A&status=active&q=ada`, ['ada']],
  ])('%s (as the partner)', async (query, expected) => {
    const filled = query.replace('ROLE_A', roleA).replace('ACCOUNT_A', accountA);
    expect((await userNames(partner, filled)).sort()).toEqual(expected);
  });

  it('answers 404 for an account or role filter out of reach, and for an unknown one alike', async () => {
    for (const query of [
      `account_id=${foreignAccount}`,
      `role_id=${foreignRole}`,
      'account_id=00000000-0000-4000-8000-000000000000',
      'role_id=00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await get(partner, `${apiPaths.users.list}?${query}`);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('notFound');
    }
  });

  it('finds nothing and counts nothing of a foreign user matching the text', async () => {
    expect(await list(partner, '?q=augusta')).toEqual({ items: [], total: 0, total_is_lower_bound: false });
    expect((await list(system, '?q=augusta')).total).toBe(1);
  });

  it.each([
    ['sort=name', 'sort', 'invalidSort'],
    ['sort=password_hash:asc', 'sort', 'invalidSort'],
    ['status=expired', 'status', 'invalidValue'],
    ['scope=root', 'scope', 'invalidValue'],
    ['limit=0', 'limit', 'invalidNumber'],
    [`q=${'x'.repeat(257)}`, 'q', 'tooLong'],
  ])('refuses %s naming the field', async (query, field, code) => {
    const response = await get(system, `${apiPaths.users.list}?${query}`);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ status: 400, field, code });
  });
});

describe('sorting and paging', () => {
  const inReachOfA = ['Grace.H', 'a-admin', 'ada'];
  it.each([
    ['name:asc', ['ada', 'Grace.H', 'a-admin']],
    ['name:desc', ['a-admin', 'Grace.H', 'ada']],
    ['user_name:asc', ['a-admin', 'ada', 'Grace.H']],
    ['email:desc', ['Grace.H', 'ada', 'a-admin']],
    ['status:asc', ['ada', 'a-admin', 'Grace.H']],
    // The administrator signed in today, Ada in January; Grace never did.
    ['last_sign_in:desc', ['a-admin', 'ada', 'Grace.H']],
    ['last_sign_in:asc', ['Grace.H', 'ada', 'a-admin']],
    ['created:asc', ['ada', 'Grace.H', 'a-admin']],
  ])('sort=%s', async (sort, expected) => {
    expect(await userNames(accountAdmin, `sort=${sort}`)).toEqual(expected);
    expect([...expected].sort()).toEqual(inReachOfA);
  });

  it.each(USER_SORT_COLUMNS.flatMap((column) => [`${column}:asc`, `${column}:desc`]))(
    'sort=%s pages through the partner’s users one at a time, no foreign row on any page',
    async (sort) => {
      const all = await list(partner, `?sort=${sort}&limit=100`);
      const paged: string[] = [];
      for (let offset = 0; offset < all.total + 1; offset += 1) {
        const page = await list(partner, `?sort=${sort}&limit=1&offset=${offset}`);
        expect(page.total).toBe(all.total);
        paged.push(...page.items.map((item) => item.id));
      }
      expect(paged).toEqual(all.items.map((item) => item.id));
      expect(paged).not.toContain(ids.foreign);
    },
  );
});

describe('GET user/export', () => {
  it('answers the filtered users as CSV in the list’s order, with a header row', async () => {
    const response = await get(
      partner,
      `${apiPaths.users.export}?sort=user_name:desc&account_id=${accountA}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="users-${TODAY}.csv"`);
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual([...USER_CSV_COLUMNS]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['Grace.H', 'ada', 'a-admin']);
    expect(rows[2]).toEqual([
      'ada',
      'Ada',
      'Lovelace',
      'ada@analytical.example',
      'account',
      'Account A',
      'active',
      'true',
      'Auditors of A',
      at(20).toISOString(),
      at(1).toISOString(),
    ]);
  });

  it('holds no foreign user, whatever the sort', async () => {
    for (const column of USER_SORT_COLUMNS) {
      const text = await (await get(partner, `${apiPaths.users.export}?sort=${column}:asc`)).text();
      expect(parseCsv(text)).toHaveLength(6);
      expect(text).not.toContain('foreign-lovelace');
    }
  });

  it('reads in batches that continue after the last row, whatever the sort', async () => {
    for (let n = 0; n < 1005; n += 1) {
      await insertTestUser(harness, {
        accountId: addedAccount,
        userName: `bulk-${String(n).padStart(4, '0')}`,
      });
    }
    for (const column of USER_SORT_COLUMNS) {
      for (const direction of ['asc', 'desc']) {
        const sort = `${column}:${direction}`;
        const text = await (await get(system, `${apiPaths.users.export}?sort=${sort}`)).text();
        const exported = parseCsv(text)
          .slice(1)
          .map((row) => row[0]);
        const listed = (await list(system, `?sort=${sort}&limit=2000`)).items.map((item) => item.user_name);
        expect(exported).toEqual(listed);
      }
    }
    await harness.deps.db.deleteFrom('users').where('user_name', 'like', 'bulk-%').execute();
  });
});

describe('GET user/{id}', () => {
  it('answers the whole record with its version as ETag', async () => {
    const response = await get(system, apiPaths.users.byId(ids.ada));
    expect(response.status).toBe(200);
    expect(response.headers.get('ETag')).toBe('"1"');
    const user = (await response.json()) as User;
    expect(user).toMatchObject({
      id: ids.ada,
      user_name: 'ada',
      kind: 'person',
      enabled: true,
      email_verified: true,
      status: 'active',
      access_scope: 'account',
      primary_account_id: accountA,
      permissions: [{ name: 'VIEW_USER' }],
      roles: [{ id: roleA, name: 'Auditors of A', code: null, app_code: 'account_manager', built_in: false }],
      last_sign_in_at: at(20).toISOString(),
      mfa: { enrolled: false, locked: false },
      last_mail: null,
      version: 1,
    });
    expect(user.accounts.map((account) => account.id)).toEqual([accountA, foreignAccount]);
  });

  it('never answers the password hash', async () => {
    const response = await get(system, apiPaths.users.byId(accountAdmin.id));
    const text = await response.text();
    expect(text).not.toContain('argon2');
    expect(JSON.parse(text)).not.toHaveProperty('password_hash');
  });

  it('shows only the accounts of the user that the caller sees', async () => {
    const user = (await (await get(partner, apiPaths.users.byId(ids.ada))).json()) as User;
    expect(user.accounts.map((account) => account.id)).toEqual([accountA]);
  });

  it('answers a pending user as pending and unverified', async () => {
    const user = (await (await get(accountAdmin, apiPaths.users.byId(ids.grace))).json()) as User;
    expect([user.status, user.email_verified]).toEqual(['pending', false]);
  });
});

describe('GET user/exists', () => {
  it.each([
    ['ada', true],
    ['ADA', true],
    ['foreign-lovelace', true],
    ['nobody', false],
  ])('%s → %s', async (name, exists) => {
    const response = await get(accountAdmin, `${apiPaths.users.exists}?user_name=${name}`);
    expect(await response.json()).toEqual({ exists });
  });

  it('refuses a missing or malformed name naming the field', async () => {
    for (const query of ['', '?user_name=', '?user_name=a%20b']) {
      const response = await get(accountAdmin, `${apiPaths.users.exists}${query}`);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe('user_name');
    }
  });
});

describe('GET role', () => {
  const roleNames = async (caller: Caller, query = '') => {
    const response = await get(caller, `${apiPaths.roles.list}?limit=100${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as RoleList).items.map((role) => role.name);
  };

  it('lists the built-in roles and the custom roles of the accounts whose users the caller reaches', async () => {
    const builtIn = [
      'Account administrator',
      'Partner administrator',
      'Read-only auditor',
      'System administrator',
    ];
    expect(await roleNames(partner)).toEqual([...builtIn.slice(0, 1), 'Auditors of A', ...builtIn.slice(1)]);
    expect(await roleNames(partner, '&type=built_in')).toEqual(builtIn);
    expect(await roleNames(partner, '&type=custom&q=AUDITORS')).toEqual(['Auditors of A']);
    expect(await roleNames(system, '&type=custom&sort=name:desc')).toEqual([
      'Auditors of B',
      'Auditors of A',
    ]);
    expect(await roleNames(partner, '&status=archived')).toEqual([]);
    expect(await roleNames(partner, '&application_id=ca_manager')).toEqual([]);
  });

  it('answers 404 for an account filter out of reach and for a foreign role', async () => {
    expect((await get(partner, `${apiPaths.roles.list}?account_id=${foreignAccount}`)).status).toBe(404);
    expect((await get(partner, apiPaths.roles.byId(foreignRole))).status).toBe(404);
    expect((await get(system, apiPaths.roles.byId(foreignRole))).status).toBe(200);
  });

  it('refuses an unknown sort or filter value naming the field', async () => {
    for (const [query, field] of [
      ['sort=holders:asc', 'sort'],
      ['type=special', 'type'],
      ['application_id=mail', 'application_id'],
    ]) {
      const response = await get(system, `${apiPaths.roles.list}?${query}`);
      expect(await errorOf(response)).toMatchObject({ status: 400, field });
    }
  });
});

describe('without a user permission', () => {
  it('is refused the list with the permission named', async () => {
    const noRoles = await signedInUser(harness, { accessScope: 'account', accountId: accountA, roles: [] });
    const response = await get(noRoles, apiPaths.users.list);
    expect(await errorOf(response)).toEqual({
      status: 403,
      message: 'You do not have permission to view user.',
      code: 'forbidden',
    });
  });
});
