import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../../contract/csv.ts';
import { apiPaths } from '../../../contract/paths.ts';
import {
  BUILT_IN_ROLES,
  PERMISSION_GROUPS,
  PERMISSION_NAMES,
  type PermissionName,
} from '../../../contract/permissions.ts';
import { PERMISSION_NAME_SEPARATOR, ROLE_CSV_COLUMNS } from '../../../contract/role-csv.ts';
import type {
  PermissionGroupList,
  Role,
  RoleDetails,
  RoleList,
  RoleUnique,
  UserList,
} from '../../../contract/schemas/users.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';

/**
 * Defining roles (decision 035 §2): the escalations of §3.5 that concern role definitions (3, 4,
 * 6), protected roles and the roles feature, unique names, versions, archiving and the audit trail.
 */

let harness: TestApp;
let system: Caller;
let accountAdmin: Caller;
let accountA: string;
let accountB: string;
let systemAccount: string;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const partnerP = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partnerP });
  accountB = await insertAccount(harness, { name: 'Account B', partnerAccountId: partnerQ });
  system = await signedInUser(harness, { accessScope: 'system' });
  systemAccount = system.accountId;
  accountAdmin = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
});
afterAll(() => harness.close());

let names = 0;
const uniqueName = () => `Role ${++names} ${Math.random().toString(36).slice(2, 8)}`;

function create(caller: Caller, body: Record<string, unknown>) {
  return call(harness, 'POST', apiPaths.roles.list, {
    token: caller.token,
    body: {
      name: uniqueName(),
      application_id: 'account_manager',
      account_id: accountA,
      permissions: [],
      ...body,
    },
  });
}

function edit(caller: Caller, id: string, body: Record<string, unknown>, version: string | null = '"1"') {
  return call(harness, 'PUT', apiPaths.roles.byId(id), {
    token: caller.token,
    body: { name: uniqueName(), description: '', permissions: [], ...body },
    headers: version === null ? {} : { 'If-Match': version },
  });
}

function archive(caller: Caller, id: string, version: string | null = '"1"') {
  return call(harness, 'DELETE', apiPaths.roles.byId(id), {
    token: caller.token,
    headers: version === null ? {} : { 'If-Match': version },
  });
}

function read(caller: Caller, id: string) {
  return call(harness, 'GET', apiPaths.roles.byId(id), { token: caller.token });
}

async function expectError(response: Response, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  if (field !== undefined) expect(error.field).toBe(field);
}

function roleEvents(id: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'resource_type', 'actor_id', 'account_id', 'details'])
    .where('resource_id', '=', id)
    .orderBy('seq')
    .execute();
}

/** A role definer of account A holding `permissions` through one role, and the id of that role. */
async function definerHolding(permissions: readonly PermissionName[]) {
  const caller = await callerWith(harness, { accessScope: 'account', accountId: accountA, permissions });
  const row = await harness.deps.db
    .selectFrom('user_roles')
    .select('role_id')
    .where('user_id', '=', caller.id)
    .executeTakeFirstOrThrow();
  return { caller, roleId: row.role_id };
}

const DEFINER: PermissionName[] = ['VIEW_USER_ROLE', 'MANAGE_USER_ROLE', 'VIEW_USER'];

describe('escalation 3: editing a role one holds', () => {
  it('refuses to add a permission the caller lacks, naming the field, and changes nothing', async () => {
    const { caller, roleId } = await definerHolding(DEFINER);
    const response = await edit(caller, roleId, { permissions: [...DEFINER, 'MANAGE_ACCOUNT'] });
    await expectError(response, 403, 'permissionNotHeld', 'permissions');
    const role = (await (await read(caller, roleId)).json()) as Role;
    expect(role.permissions).not.toContain('MANAGE_ACCOUNT');
    expect(role.version).toBe(1);
  });

  it('adds a permission the caller holds through another role', async () => {
    const { caller, roleId } = await definerHolding(DEFINER);
    const other = await insertCustomRole(harness, accountA, ['VIEW_ACCOUNT']);
    await harness.deps.db.insertInto('user_roles').values({ user_id: caller.id, role_id: other }).execute();
    const response = await edit(caller, roleId, { permissions: [...DEFINER, 'VIEW_ACCOUNT'] });
    expect(response.status).toBe(204);
    expect(response.headers.get('ETag')).toBe('"2"');
    const role = (await (await read(caller, roleId)).json()) as Role;
    expect(role.permissions).toContain('VIEW_ACCOUNT');
  });

  it('brings view with manage, and refuses the view the caller lacks', async () => {
    const { caller } = await definerHolding([...DEFINER, 'MANAGE_ORGANIZATION']);
    // MANAGE_ORGANIZATION brings VIEW_ORGANIZATION, which this caller does not hold.
    await expectError(
      await create(caller, { permissions: ['MANAGE_ORGANIZATION'] }),
      403,
      'permissionNotHeld',
    );
    const created = await create(system, { permissions: ['MANAGE_ORGANIZATION'] });
    expect(created.status).toBe(201);
    expect(((await created.json()) as Role).permissions).toEqual([
      'MANAGE_ORGANIZATION',
      'VIEW_ORGANIZATION',
    ]);
  });
});

describe('escalation 4: a role stronger than oneself', () => {
  it('is neither edited nor archived by a caller lacking what it grants', async () => {
    const stronger = await insertCustomRole(harness, accountA, ['VIEW_USER', 'MANAGE_SYSTEM_SETTINGS']);
    await expectError(
      await edit(accountAdmin, stronger, { permissions: ['VIEW_USER'] }),
      403,
      'roleExceedsYours',
    );
    await expectError(await archive(accountAdmin, stronger), 403, 'roleExceedsYours');
    expect(((await (await read(system, stronger)).json()) as Role).status).toBe('active');
  });
});

describe('escalation 6: where a role may be created', () => {
  it('answers 404 for an account out of reach, and for a clone of a role out of reach', async () => {
    await expectError(await create(accountAdmin, { account_id: accountB }), 404, 'notFound');
    const foreignRole = await insertCustomRole(harness, accountB, []);
    await expectError(await create(accountAdmin, { cloned_from: foreignRole }), 404, 'notFound');
    await expectError(await create(accountAdmin, { account_id: 'no-such-account' }), 404, 'notFound');
  });

  it('keeps system settings to the System Account, and partner-user management to partner accounts', async () => {
    const settings = { permissions: ['MANAGE_SYSTEM_SETTINGS'] };
    await expectError(await create(system, settings), 400, 'permissionNotForAccount', 'permissions');
    expect((await create(system, { ...settings, account_id: systemAccount })).status).toBe(201);
    const partnerUsers = { permissions: ['VIEW_PARTNER_USER'] };
    await expectError(await create(system, partnerUsers), 400, 'permissionNotForAccount', 'permissions');
  });

  it('refuses an application without permissions to grant', async () => {
    const response = await create(system, { application_id: 'ca_manager' });
    await expectError(response, 400, 'noPermissionsForApplication', 'application_id');
  });
});

describe('protected roles and the roles feature', () => {
  it('never edits or archives a built-in role, whoever asks', async () => {
    const builtIn = await harness.deps.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'account_administrator')
      .executeTakeFirstOrThrow();
    await expectError(await edit(system, builtIn.id, { permissions: [] }), 409, 'builtInRole');
    await expectError(await archive(system, builtIn.id), 409, 'builtInRole');
  });

  it('clones a built-in role into a custom one, checking the submitted permissions', async () => {
    const builtIn = await harness.deps.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'account_administrator')
      .executeTakeFirstOrThrow();
    const permissions = BUILT_IN_ROLES.account_administrator.permissions.filter(
      (name) => name !== 'VIEW_AUDIT_LOG',
    );
    const response = await create(accountAdmin, { cloned_from: builtIn.id, permissions });
    expect(response.status).toBe(201);
    const clone = (await response.json()) as Role;
    expect(clone).toMatchObject({
      built_in: false,
      account_id: accountA,
      cloned_from: builtIn.id,
      version: 1,
    });
    expect(clone.permissions).not.toContain('VIEW_AUDIT_LOG');
    expect(response.headers.get('Location')).toBe(apiPaths.roles.byId(clone.id));
  });

  it('with the feature off, defines no role but keeps the permissions of the roles already held', async () => {
    const holder = await callerWith(harness, {
      accessScope: 'account',
      accountId: accountA,
      permissions: ['VIEW_USER'],
    });
    const existing = await insertCustomRole(harness, accountA, []);
    const toggle = (enabled: boolean) =>
      call(harness, 'PUT', apiPaths.featureFlags.byName('roles'), { token: system.token, body: { enabled } });
    expect((await toggle(false)).status).toBe(204);
    try {
      await expectError(await create(system, {}), 409, 'rolesFeatureOff');
      await expectError(await edit(system, existing, {}), 409, 'rolesFeatureOff');
      await expectError(await archive(system, existing), 409, 'rolesFeatureOff');
      const users = await call(harness, 'GET', apiPaths.users.list, { token: holder.token });
      expect(users.status).toBe(200);
    } finally {
      expect((await toggle(true)).status).toBe(204);
    }
  });
});

describe('unique names', () => {
  const unique = async (accountId: string, name: string) => {
    const query = new URLSearchParams({ application_id: 'account_manager', account_id: accountId, name });
    const response = await call(harness, 'GET', `${apiPaths.roles.unique}?${query}`, { token: system.token });
    expect(response.status).toBe(200);
    return ((await response.json()) as RoleUnique).unique;
  };

  it('refuses a name taken by an active role of the account or by a built-in role, whatever the case', async () => {
    const name = uniqueName();
    expect(await unique(accountA, name)).toBe(true);
    expect((await create(system, { name })).status).toBe(201);
    expect(await unique(accountA, name.toUpperCase())).toBe(false);
    await expectError(await create(system, { name: name.toUpperCase() }), 409, 'inUse', 'name');
    // Another account has its own names.
    expect(await unique(accountB, name)).toBe(true);
    expect((await create(system, { name, account_id: accountB })).status).toBe(201);
    expect(await unique(accountA, 'account ADMINISTRATOR')).toBe(false);
    await expectError(await create(system, { name: 'Account administrator' }), 409, 'inUse', 'name');
  });

  it('refuses a rename onto a taken name, and frees the name of an archived role', async () => {
    const taken = uniqueName();
    const first = (await (await create(system, { name: taken })).json()) as Role;
    const second = (await (await create(system, {})).json()) as Role;
    await expectError(await edit(system, second.id, { name: taken.toLowerCase() }), 409, 'inUse', 'name');
    // Renaming a role to its own name in another case is no collision.
    expect((await edit(system, first.id, { name: taken.toUpperCase() })).status).toBe(204);
    expect((await archive(system, first.id, '"2"')).status).toBe(204);
    expect(await unique(accountA, taken)).toBe(true);
    expect((await edit(system, second.id, { name: taken })).status).toBe(204);
  });
});

describe('versions', () => {
  it('requires If-Match (428) and refuses an older version (412) with the role as it is', async () => {
    const role = (await (await create(system, { description: 'First' })).json()) as Role;
    await expectError(await edit(system, role.id, {}, null), 428, 'preconditionRequired', 'If-Match');
    await expectError(await archive(system, role.id, null), 428, 'preconditionRequired', 'If-Match');
    expect((await edit(system, role.id, { name: 'Versioned role', description: 'Second' })).status).toBe(204);
    const stale = await edit(system, role.id, { description: 'Lost' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('ETag')).toBe('"2"');
    const body = (await stale.json()) as { error: { code: string }; current: Role };
    expect(body.error.code).toBe('preconditionFailed');
    expect(body.current).toMatchObject({ id: role.id, description: 'Second', version: 2 });
    await expectError(await archive(system, role.id), 412, 'preconditionFailed');
    const current = await read(system, role.id);
    expect(current.headers.get('ETag')).toBe('"2"');
  });
});

describe('archiving', () => {
  it('takes the role’s permissions from its holders on their next request', async () => {
    const { caller: holder, roleId } = await definerHolding(['VIEW_USER']);
    expect((await call(harness, 'GET', apiPaths.users.list, { token: holder.token })).status).toBe(200);
    expect((await archive(system, roleId)).status).toBe(204);
    const after = await call(harness, 'GET', apiPaths.users.list, { token: holder.token });
    await expectError(after, 403, 'forbidden');
    const role = (await (await read(system, roleId)).json()) as Role;
    expect(role).toMatchObject({ status: 'archived', version: 2 });
    // Archived roles are read-only; archiving again changes nothing.
    await expectError(await edit(system, roleId, {}, '"2"'), 409, 'conflict');
    expect((await archive(system, roleId, '"2"')).status).toBe(204);
    expect((await roleEvents(roleId)).length).toBe(1);
  });
});

describe('permission groups', () => {
  const groups = async (caller: Caller, accountId: string, application = 'account_manager') => {
    const query = new URLSearchParams({ application_id: application, account_id: accountId });
    const response = await call(harness, 'GET', `${apiPaths.permissionGroups}?${query}`, {
      token: caller.token,
    });
    expect(response.status).toBe(200);
    const list = (await response.json()) as PermissionGroupList;
    return new Map(
      list.items.flatMap((group) => group.permissions.map((entry) => [entry.name, entry.grantable])),
    );
  };

  it('puts every permission in exactly one group of the account-management application', () => {
    const grouped = PERMISSION_GROUPS.account_manager.flatMap((group) => group.permissions);
    expect([...grouped].sort()).toEqual([...PERMISSION_NAMES].sort());
  });

  it('marks grantable only what the caller holds and the account type allows', async () => {
    const ofAdmin = await groups(accountAdmin, accountA);
    expect(ofAdmin.get('VIEW_USER')).toBe(true);
    expect(ofAdmin.get('MANAGE_SYSTEM_SETTINGS')).toBe(false);
    const ofSystemInA = await groups(system, accountA);
    expect(ofSystemInA.get('MANAGE_SYSTEM_SETTINGS')).toBe(false);
    expect(ofSystemInA.get('VIEW_PARTNER_USER')).toBe(false);
    expect(ofSystemInA.get('MANAGE_ORGANIZATION')).toBe(true);
    expect((await groups(system, systemAccount)).get('MANAGE_SYSTEM_SETTINGS')).toBe(true);
    expect((await groups(system, accountA, 'ca_manager')).size).toBe(0);
  });
});

describe('export', () => {
  it('writes the roles the caller reaches, filtered and sorted, with every column of the contract', async () => {
    const name = `Export ${uniqueName()}`;
    await insertCustomRole(harness, accountA, ['VIEW_ACCOUNT', 'VIEW_USER'], name);
    const foreign = `Foreign ${uniqueName()}`;
    await insertCustomRole(harness, accountB, [], foreign);
    const response = await call(harness, 'GET', `${apiPaths.roles.export}?type=custom&sort=name:desc`, {
      token: accountAdmin.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(ROLE_CSV_COLUMNS.join(','));
    const line = lines.find((candidate) => candidate.startsWith(`${name},`));
    expect(line).toMatch(
      new RegExp(
        `^${name},account_manager,custom,${accountA},Account A,active,,VIEW_ACCOUNT\\|VIEW_USER,0,\\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(lines.some((line) => line.includes(foreign))).toBe(false);
    expect(lines.some((line) => line.includes('Account administrator'))).toBe(false);
    const names = lines.slice(1).map((line) => line.split(',')[0] ?? '');
    expect(names).toEqual([...names].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
  });

  it('writes each line as the CSV writer writes the list’s role, byte for byte', async () => {
    // Written by the database (decision 027); the expected lines by contract/csv.ts from the list.
    await insertCustomRole(harness, accountA, ['VIEW_USER', 'VIEW_ACCOUNT'], `=Lines, "${uniqueName()}"`);
    await insertCustomRole(harness, accountA, [], `Lines ${uniqueName()}`);
    const query = '?q=Lines&sort=created:desc';
    const { items } = (await (
      await call(harness, 'GET', `${apiPaths.roles.list}${query}`, { token: system.token })
    ).json()) as RoleList;
    expect(items.length).toBeGreaterThanOrEqual(2);
    const text = await (
      await call(harness, 'GET', `${apiPaths.roles.export}${query}`, { token: system.token })
    ).text();
    const lines = items.map((role) =>
      csvLine([
        role.name,
        role.app_code,
        role.built_in ? 'built_in' : 'custom',
        role.account_id ?? '',
        role.account_name ?? '',
        role.status,
        role.description,
        role.permissions.join(PERMISSION_NAME_SEPARATOR),
        String(role.users_count),
        role.created_at,
      ]),
    );
    expect(text).toBe(csvLine(ROLE_CSV_COLUMNS) + lines.join(''));
  });
});

describe('holders', () => {
  it('lists the holders the caller reaches, by name, with their count', async () => {
    const roleId = await insertCustomRole(harness, accountA, []);
    const holders = [await definerHolding([]), await definerHolding([])];
    for (const { caller } of holders) {
      await harness.deps.db
        .insertInto('user_roles')
        .values({ user_id: caller.id, role_id: roleId })
        .execute();
    }
    const response = await call(harness, 'GET', `${apiPaths.roles.users(roleId)}?limit=1`, {
      token: accountAdmin.token,
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as UserList;
    expect(page.total).toBe(2);
    expect(page.items).toHaveLength(1);
  });

  it('says on the role how many holders the caller reaches and whether the caller may edit it', async () => {
    const roleId = await insertCustomRole(harness, accountA, ['VIEW_USER']);
    const { caller: holder } = await definerHolding([]);
    await harness.deps.db.insertInto('user_roles').values({ user_id: holder.id, role_id: roleId }).execute();
    const details = async (caller: Caller, id: string) =>
      (await (await read(caller, id)).json()) as RoleDetails;
    expect(await details(accountAdmin, roleId)).toMatchObject({ users_count: 1, editable: true });
    const auditor = await signedInUser(harness, {
      accessScope: 'account',
      accountId: accountA,
      roles: ['read_only_auditor'],
    });
    expect((await details(auditor, roleId)).editable).toBe(false);
    const stronger = await insertCustomRole(harness, accountA, ['MANAGE_SYSTEM_SETTINGS']);
    expect((await details(accountAdmin, stronger)).editable).toBe(false);
    expect((await details(system, stronger)).editable).toBe(true);
    const builtIn = await harness.deps.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'account_administrator')
      .executeTakeFirstOrThrow();
    expect((await details(system, builtIn.id)).editable).toBe(false);
  });

  it('leaves out the holders of a built-in role in accounts out of reach', async () => {
    const foreignAdmin = await signedInUser(harness, { accessScope: 'account', accountId: accountB });
    const builtIn = await harness.deps.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'account_administrator')
      .executeTakeFirstOrThrow();
    const ids = async (caller: Caller) => {
      const response = await call(harness, 'GET', `${apiPaths.roles.users(builtIn.id)}?limit=1000`, {
        token: caller.token,
      });
      const page = (await response.json()) as UserList;
      expect(page.total).toBe(page.items.length);
      return page.items.map((item) => item.id);
    };
    expect(await ids(accountAdmin)).not.toContain(foreignAdmin.id);
    expect(await ids(system)).toContain(foreignAdmin.id);
  });
});

describe('the list’s rows', () => {
  let partnerAdmin: Caller;
  let partnerR: string;
  let underR: string;
  let underS: string;

  beforeAll(async () => {
    partnerR = await insertAccount(harness, { name: 'Partner R', type: 'partner' });
    const partnerS = await insertAccount(harness, { name: 'Partner S', type: 'partner' });
    underR = await insertAccount(harness, { name: 'Under R', partnerAccountId: partnerR });
    underS = await insertAccount(harness, { name: 'Under S', partnerAccountId: partnerS });
    partnerAdmin = await signedInUser(harness, { accessScope: 'partner', accountId: partnerR });
  });

  async function rows(caller: Caller, query: string) {
    const response = await call(harness, 'GET', `${apiPaths.roles.list}?limit=100&${query}`, {
      token: caller.token,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as RoleList).items;
  }

  async function rowOf(caller: Caller, id: string) {
    const row = (await rows(caller, 'type=built_in')).find((item) => item.id === id);
    if (!row) throw new Error(`role ${id} is not listed`);
    return row;
  }

  async function holdRole(accountId: string, roleId: string) {
    await insertTestUser(harness, { accountId, roleIds: [roleId] });
  }

  it('counts the holders the caller reaches, as the details do, never those of another partner', async () => {
    const auditor = await harness.deps.db
      .selectFrom('roles')
      .select('id')
      .where('code', '=', 'read_only_auditor')
      .executeTakeFirstOrThrow();
    const partnerBefore = (await rowOf(partnerAdmin, auditor.id)).users_count;
    const systemBefore = (await rowOf(system, auditor.id)).users_count;
    await holdRole(underS, auditor.id);
    await holdRole(underS, auditor.id);
    await holdRole(underR, auditor.id);
    const partnerRow = await rowOf(partnerAdmin, auditor.id);
    expect(partnerRow.users_count).toBe(partnerBefore + 1);
    expect((await rowOf(system, auditor.id)).users_count).toBe(systemBefore + 3);
    const details = (await (await read(partnerAdmin, auditor.id)).json()) as RoleDetails;
    expect(details.users_count).toBe(partnerRow.users_count);
    expect(partnerRow).toMatchObject({ account_name: null, editable: false });
  });

  it('names the account of a custom role, and says whether the caller may edit it as the details do', async () => {
    const mine = await insertCustomRole(harness, underR, ['VIEW_USER']);
    const stronger = await insertCustomRole(harness, underR, ['MANAGE_SYSTEM_SETTINGS']);
    const listed = await rows(partnerAdmin, `type=custom&account_id=${underR}`);
    for (const id of [mine, stronger]) {
      const row = listed.find((item) => item.id === id);
      const details = (await (await read(partnerAdmin, id)).json()) as RoleDetails;
      expect(row).toMatchObject({ account_name: 'Under R', users_count: 0, editable: details.editable });
      expect(row?.created_at).toBe(details.created_at);
    }
    expect(listed.find((item) => item.id === mine)?.editable).toBe(true);
    expect(listed.find((item) => item.id === stronger)?.editable).toBe(false);
    const auditor = await signedInUser(harness, {
      accessScope: 'account',
      accountId: underR,
      roles: ['read_only_auditor'],
    });
    expect((await rows(auditor, 'type=custom')).every((item) => !item.editable)).toBe(true);
  });

  it('sorts by users and by creation, in the list and in the export', async () => {
    const account = await insertAccount(harness, { name: 'Sorted', partnerAccountId: partnerR });
    const none = await insertCustomRole(harness, account, [], 'Sorted none');
    const two = await insertCustomRole(harness, account, [], 'Sorted two');
    const one = await insertCustomRole(harness, account, [], 'Sorted one');
    await holdRole(account, two);
    await holdRole(account, two);
    await holdRole(account, one);
    // A holder out of the partner's reach counts for nobody but the system.
    await holdRole(underS, none);
    await holdRole(underS, none);
    await holdRole(underS, none);
    const days = { [none]: '2026-01-03', [two]: '2026-01-01', [one]: '2026-01-02' };
    for (const [id, day] of Object.entries(days)) {
      await harness.deps.db
        .updateTable('roles')
        .set({ created_at: new Date(`${day}T00:00:00Z`) })
        .where('id', '=', id)
        .execute();
    }
    const order = async (sort: string) =>
      (await rows(partnerAdmin, `type=custom&account_id=${account}&sort=${sort}`)).map((item) => item.id);
    expect(await order('users:desc')).toEqual([two, one, none]);
    expect(await order('users:asc')).toEqual([none, one, two]);
    expect(await order('created:asc')).toEqual([two, one, none]);
    expect((await rows(system, `type=custom&account_id=${account}&sort=users:desc`))[0]?.id).toBe(none);
    const response = await call(
      harness,
      'GET',
      `${apiPaths.roles.export}?type=custom&account_id=${account}&sort=users:desc`,
      { token: partnerAdmin.token },
    );
    const names = (await response.text())
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(names).toEqual(['Sorted two', 'Sorted one', 'Sorted none']);
  });
});

describe('assigning a role (PUT role/{id}/users)', () => {
  const assign = (caller: Caller, roleId: string, body: Record<string, unknown>) =>
    call(harness, 'PUT', apiPaths.roles.users(roleId), { token: caller.token, body });
  const holds = async (userId: string, roleId: string) =>
    (await harness.deps.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', userId)
      .where('role_id', '=', roleId)
      .executeTakeFirst()) !== undefined;
  const builtInId = async (code: string) =>
    (
      await harness.deps.db
        .selectFrom('roles')
        .select('id')
        .where('code', '=', code)
        .executeTakeFirstOrThrow()
    ).id;

  it('escalation 1: refuses to give oneself a role', async () => {
    const roleId = await insertCustomRole(harness, accountA, []);
    await expectError(await assign(accountAdmin, roleId, { add: [accountAdmin.id] }), 403, 'ownUser');
    expect(await holds(accountAdmin.id, roleId)).toBe(false);
  });

  it('escalation 2: refuses a role granting a permission the caller lacks, all or none', async () => {
    const managed = await insertTestUser(harness, {
      accountId: accountA,
      userName: `managed-${uniqueName().slice(5, 12)}`,
    });
    const strong = await insertCustomRole(harness, accountA, ['VIEW_USER', 'MANAGE_SYSTEM_SETTINGS']);
    await expectError(await assign(accountAdmin, strong, { add: [managed] }), 403, 'permissionNotHeld');
    expect(await holds(managed, strong)).toBe(false);
  });

  it('escalation 5: a role of another account is 400 in reach and 404 out of it; a built-in role only for its scope', async () => {
    const managed = await insertTestUser(harness, { accountId: accountA, userName: 'escalation-5' });
    const roleOfB = await insertCustomRole(harness, accountB, []);
    await expectError(await assign(system, roleOfB, { add: [managed] }), 400, 'roleNotForUser', 'add');
    await expectError(await assign(accountAdmin, roleOfB, { add: [managed] }), 404, 'notFound');
    const systemAdministrator = await builtInId('system_administrator');
    await expectError(
      await assign(system, systemAdministrator, { add: [managed] }),
      400,
      'roleNotForUser',
      'add',
    );
    expect(await holds(managed, systemAdministrator)).toBe(false);
    // The read-only auditor fits every scope (given by the system administrator, who holds all it grants).
    expect((await assign(system, await builtInId('read_only_auditor'), { add: [managed] })).status).toBe(204);
  });

  it('gives no archived role, and takes the role from a stronger user from nobody weaker', async () => {
    const managed = await insertTestUser(harness, { accountId: accountA, userName: 'archived-target' });
    const archived = await insertCustomRole(harness, accountA, []);
    expect((await archive(system, archived)).status).toBe(204);
    await expectError(await assign(system, archived, { add: [managed] }), 400, 'roleNotForUser', 'add');
    const roleId = await insertCustomRole(harness, accountA, []);
    const stronger = await insertTestUser(harness, {
      accountId: accountA,
      userName: 'stronger-holder',
      roleIds: [roleId, await insertCustomRole(harness, accountA, ['VIEW_USER', 'MANAGE_SYSTEM_SETTINGS'])],
    });
    await expectError(await assign(accountAdmin, roleId, { remove: [stronger] }), 403, 'userExceedsYours');
    expect(await holds(stronger, roleId)).toBe(true);
  });

  it('keeps the System administrator role on the last enabled system administrator', async () => {
    const role = await builtInId('system_administrator');
    const caller = await callerWith(harness, {
      accessScope: 'system',
      permissions: BUILT_IN_ROLES.system_administrator.permissions,
    });
    const holders = await harness.deps.db
      .selectFrom('user_roles')
      .innerJoin('users', 'users.id', 'user_roles.user_id')
      .select('users.id')
      .where('user_roles.role_id', '=', role)
      .where('users.access_scope', '=', 'system')
      .execute();
    const ids = holders.map((holder) => holder.id);
    await expectError(await assign(caller, role, { remove: ids }), 409, 'lastSystemAdministrator');
    for (const id of ids) expect(await holds(id, role)).toBe(true);
  });

  it('gives and takes a role, records each user whose roles changed, and the holder gains it at once', async () => {
    const roleId = await insertCustomRole(harness, accountA, ['VIEW_USER'], 'Readers');
    const user = await callerWith(harness, { accessScope: 'account', accountId: accountA, permissions: [] });
    expect((await call(harness, 'GET', apiPaths.users.list, { token: user.token })).status).toBe(403);
    expect((await assign(accountAdmin, roleId, { add: [user.id] })).status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.users.list, { token: user.token })).status).toBe(200);
    // Giving it again changes nothing and records nothing.
    expect((await assign(accountAdmin, roleId, { add: [user.id] })).status).toBe(204);
    expect((await assign(accountAdmin, roleId, { remove: [user.id] })).status).toBe(204);
    // Beside the user's sign-in.
    const events = (await roleEvents(user.id)).filter((event) => event.action === 'UPDATE');
    const names = (details: unknown) =>
      (details as { changes: { roles: { from: string[]; to: string[] } } }).changes.roles;
    expect(events.map((event) => [event.action, event.resource_type, event.account_id])).toEqual([
      ['UPDATE', 'USER', accountA],
      ['UPDATE', 'USER', accountA],
    ]);
    const [given, taken] = events.map((event) => names(event.details));
    expect(given?.to).toContain('Readers');
    expect(given?.from).not.toContain('Readers');
    expect(taken?.from).toContain('Readers');
    expect(taken?.to).not.toContain('Readers');
  });

  it('with the roles feature off, gives no custom role but still gives a built-in one', async () => {
    const managed = await insertTestUser(harness, { accountId: accountA, userName: 'feature-off-target' });
    const roleId = await insertCustomRole(harness, accountA, []);
    const toggle = (enabled: boolean) =>
      call(harness, 'PUT', apiPaths.featureFlags.byName('roles'), { token: system.token, body: { enabled } });
    expect((await toggle(false)).status).toBe(204);
    try {
      await expectError(await assign(system, roleId, { add: [managed] }), 409, 'rolesFeatureOff');
      expect((await assign(system, await builtInId('read_only_auditor'), { add: [managed] })).status).toBe(
        204,
      );
    } finally {
      expect((await toggle(true)).status).toBe(204);
    }
  });
});

describe('audit events', () => {
  it('records the creation, each change with its values, the archive, and nothing for no change', async () => {
    const response = await create(accountAdmin, {
      name: 'Audited role',
      description: 'Reads',
      permissions: ['VIEW_USER'],
    });
    const role = (await response.json()) as Role;
    const same = { name: 'Audited role', description: 'Reads', permissions: ['VIEW_USER'] };
    expect((await edit(accountAdmin, role.id, same)).status).toBe(204);
    expect(((await (await read(system, role.id)).json()) as Role).version).toBe(1);
    const changed = {
      name: 'Audited role 2',
      description: 'Reads',
      permissions: ['VIEW_USER', 'VIEW_ACCOUNT'],
    };
    expect((await edit(accountAdmin, role.id, changed)).status).toBe(204);
    expect((await archive(accountAdmin, role.id, '"2"')).status).toBe(204);

    const base = { resource_type: 'ROLE', actor_id: accountAdmin.id, account_id: accountA };
    expect(await roleEvents(role.id)).toEqual([
      {
        ...base,
        action: 'CREATE',
        details: {
          name: 'Audited role',
          application: 'account_manager',
          account_id: accountA,
          permissions: ['VIEW_USER'],
          cloned_from: null,
        },
      },
      {
        ...base,
        action: 'UPDATE',
        details: {
          changes: {
            name: { from: 'Audited role', to: 'Audited role 2' },
            permissions: { from: ['VIEW_USER'], to: ['VIEW_ACCOUNT', 'VIEW_USER'] },
          },
        },
      },
      { ...base, action: 'UPDATE', details: { changes: { archived: { from: false, to: true } } } },
    ]);
  });
});
