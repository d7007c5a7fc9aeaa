import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import { type RoleList, type UserList, userUpdateSchema } from '../../../contract/schemas/users.ts';
import { saveFeatureFlag } from '../../../server/feature-flags/store.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from './helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from './matrix-callers.ts';

/**
 * Every read endpoint of users and roles (decision 018 slice 1) and the edit of a user's fields
 * (PUT user/{id}, which a person may make on itself without any permission), called by each kind of caller on
 * each kind of user, with the exact status the server must answer. Callers are those of
 * `matrix-callers.ts`. Users, from the caller's side:
 * - own: the caller itself;
 * - managed: a user of A, within every caller's reach;
 * - stronger: a user of A holding a custom role with every permission (reading is not restricted by it);
 * - foreign: a user of an account under another partner Q, out of reach except for system scope.
 * Each target user holds a custom role of its primary account that grants nothing, which the role
 * endpoints and the role filter address.
 */

const TARGETS = ['own', 'managed', 'stronger', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
/** A status, or a 403 with the code it must carry when that is not `forbidden`. */
type Cell = number | readonly [403, 'userExceedsYours'];
/** Statuses for own, managed, stronger and foreign users. */
type Row = readonly [Cell, Cell, Cell, Cell];

interface Target {
  userId: string;
  userName: string;
  accountId: string;
  /** The custom role of the target's account that the target holds. */
  roleId: string;
}

interface Endpoint {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, target: Target) => Promise<Response>;
  /** For lists: whether the answer includes the target. */
  lists?: (response: Response, target: Target) => Promise<boolean>;
}

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
const targets = {} as Record<Exclude<TargetKind, 'own'>, Target>;
const ownTargets = {} as Record<MatrixCaller, Target>;
/** One custom role per account, granting nothing, held by the targets of that account. */
const roleOfAccount = new Map<string, string>();

async function roleIn(accountId: string): Promise<string> {
  let roleId = roleOfAccount.get(accountId);
  if (roleId === undefined) {
    roleId = await insertCustomRole(harness, accountId, []);
    roleOfAccount.set(accountId, roleId);
  }
  return roleId;
}

async function targetIn(accountId: string, extraRoles: readonly string[] = []): Promise<Target> {
  const roleId = await roleIn(accountId);
  const userName = `target-${roleOfAccount.size}-${Math.random().toString(36).slice(2, 10)}`;
  const userId = await insertTestUser(harness, { accountId, userName, roleIds: [roleId, ...extraRoles] });
  return { userId, userName, accountId, roleId };
}

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const made = await matrixCallers(harness);
  callers = made.callers;
  const { accountA, accountB } = made;
  for (const kind of MATRIX_CALLERS) {
    const caller = callers[kind];
    const roleId = await roleIn(caller.accountId);
    await harness.deps.db.insertInto('user_roles').values({ user_id: caller.id, role_id: roleId }).execute();
    ownTargets[kind] = { userId: caller.id, userName: caller.userName, accountId: caller.accountId, roleId };
  }
  targets.managed = await targetIn(accountA);
  targets.stronger = await targetIn(accountA, [await insertCustomRole(harness, accountA, PERMISSION_NAMES)]);
  targets.foreign = await targetIn(accountB);
});
afterAll(() => harness.close());

const targetFor = (caller: MatrixCaller, kind: TargetKind): Target =>
  kind === 'own' ? ownTargets[caller] : targets[kind];

const get = (caller: Caller, path: string) => call(harness, 'GET', path, { token: caller.token });
const userIds = async (response: Response) =>
  ((await response.json()) as UserList).items.map((item) => item.id);

const everywhere: Row = [200, 200, 200, 200];
const inReach: Row = [200, 200, 200, 404];
const reachThenPermission: Row = [403, 403, 403, 404];
/** Reads of one user, or of a list narrowed to one account or role, by the target's reach. */
const readsOfOne: Record<MatrixCaller, Row> = {
  system: everywhere,
  partner: inReach,
  'account admin': inReach,
  'account, all permissions': inReach,
  auditor: inReach,
  'no user permission': reachThenPermission,
};
/** Reads of a whole list: everyone who may read gets one, holding only what it reaches. */
const readsOfAll: Record<MatrixCaller, Row> = {
  system: everywhere,
  partner: everywhere,
  'account admin': everywhere,
  'account, all permissions': everywhere,
  auditor: everywhere,
  'no user permission': [403, 403, 403, 403],
};

const exceedsYours = [403, 'userExceedsYours'] as const;

/** The target's fields as stored, with a new first name, on its current version. */
async function editOf(caller: Caller, target: Target): Promise<Response> {
  const row = await harness.deps.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', target.userId)
    .executeTakeFirstOrThrow();
  return call(harness, 'PUT', apiPaths.users.byId(target.userId), {
    token: caller.token,
    headers: { 'If-Match': `"${row.version}"` },
    body: {
      first_name: `Edited ${Math.random().toString(36).slice(2, 8)}`,
      last_name: row.last_name,
      user_name: row.user_name,
      email: row.email,
      phone: row.phone ?? '',
      locale: row.locale,
    },
  });
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'PUT user/{id} (oneself without any permission; G2, then G4 on a stronger user)',
    expected: {
      system: [204, 204, 204, 204],
      partner: [204, 204, exceedsYours, 404],
      'account admin': [204, 204, exceedsYours, 404],
      'account, all permissions': [204, 204, 204, 404],
      auditor: [204, 403, 403, 404],
      'no user permission': [204, 403, 403, 404],
    },
    request: editOf,
  },
  {
    name: 'GET user',
    expected: readsOfAll,
    request: (caller) => get(caller, `${apiPaths.users.list}?limit=1000`),
    lists: async (response, target) => (await userIds(response)).includes(target.userId),
  },
  {
    name: 'GET user?q= (the target’s user name)',
    expected: readsOfAll,
    request: (caller, target) => get(caller, `${apiPaths.users.list}?q=${target.userName}`),
    lists: async (response, target) => {
      const list = (await response.json()) as UserList;
      // The total counts reachable users only: a foreign match is not even counted.
      expect(list.total).toBe(list.items.length);
      return list.items.some((item) => item.id === target.userId);
    },
  },
  {
    name: 'GET user?account_id= (the target’s account)',
    expected: readsOfOne,
    request: (caller, target) =>
      get(caller, `${apiPaths.users.list}?account_id=${target.accountId}&limit=1000`),
    lists: async (response, target) => (await userIds(response)).includes(target.userId),
  },
  {
    name: 'GET user?role_id= (the target’s custom role)',
    expected: readsOfOne,
    request: (caller, target) => get(caller, `${apiPaths.users.list}?role_id=${target.roleId}&limit=1000`),
    lists: async (response, target) => (await userIds(response)).includes(target.userId),
  },
  {
    name: 'GET user?sort=account:asc',
    expected: readsOfAll,
    request: (caller) => get(caller, `${apiPaths.users.list}?sort=account:asc&limit=1000`),
    lists: async (response, target) => (await userIds(response)).includes(target.userId),
  },
  {
    name: 'GET user/export',
    expected: readsOfAll,
    request: (caller) => get(caller, `${apiPaths.users.export}?sort=account:desc`),
    lists: async (response, target) => (await response.text()).includes(target.userName),
  },
  {
    name: 'GET user/export?account_id= (the target’s account)',
    expected: readsOfOne,
    request: (caller, target) => get(caller, `${apiPaths.users.export}?account_id=${target.accountId}`),
    lists: async (response, target) => (await response.text()).includes(target.userName),
  },
  {
    name: 'GET user/exists?user_name= (any signed-in caller)',
    expected: {
      system: everywhere,
      partner: everywhere,
      'account admin': everywhere,
      'account, all permissions': everywhere,
      auditor: everywhere,
      'no user permission': everywhere,
    },
    request: (caller, target) => get(caller, `${apiPaths.users.exists}?user_name=${target.userName}`),
  },
  {
    name: 'GET user/{id}',
    expected: readsOfOne,
    request: (caller, target) => get(caller, apiPaths.users.byId(target.userId)),
  },
  {
    name: 'GET user/{id}/applications',
    expected: readsOfOne,
    request: (caller, target) => get(caller, apiPaths.users.applications(target.userId)),
  },
  {
    name: 'GET role',
    expected: readsOfAll,
    request: (caller) => get(caller, `${apiPaths.roles.list}?limit=1000`),
    lists: async (response, target) =>
      ((await response.json()) as RoleList).items.some((role) => role.id === target.roleId),
  },
  {
    name: 'GET role?account_id= (the target’s account)',
    expected: readsOfOne,
    request: (caller, target) => get(caller, `${apiPaths.roles.list}?account_id=${target.accountId}`),
    lists: async (response, target) =>
      ((await response.json()) as RoleList).items.some((role) => role.id === target.roleId),
  },
  {
    name: 'GET role/{id} (the target’s custom role)',
    expected: readsOfOne,
    request: (caller, target) => get(caller, apiPaths.roles.byId(target.roleId)),
  },
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => {
      const cell = endpoint.expected[caller][index] ?? 0;
      return typeof cell === 'number'
        ? { caller, kind, status: cell, code: 'forbidden' }
        : { caller, kind, status: cell[0], code: cell[1] };
    }),
  );

  it.each(cells)('$caller on $kind user → $status', async ({ caller, kind, status, code }) => {
    const target = targetFor(caller, kind);
    const response = await endpoint.request(callers[caller], target);
    expect(response.status).toBe(status);
    if (status >= 400) {
      const error = await errorOf(response);
      expect(error.status).toBe(status);
      if (status === 404) expect(error.code).toBe('notFound');
      if (status === 403) expect(error.code).toBe(code);
    } else if (endpoint.lists) {
      const reaches = caller === 'system' || kind !== 'foreign';
      expect(await endpoint.lists(response, target)).toBe(reaches);
    }
  });

  it('asks for a token', async () => {
    const response = await endpoint.request({ ...callers.system, token: '' }, targets.managed);
    expect(response.status).toBe(401);
  });
});

/* ---- Changes (decision 018 slice 2) ---- */

/**
 * Every change of a user, by each caller on each kind of user. A cell is `status` or `status code`.
 * Each cell gets a fresh managed, stronger or foreign user (a change must not depend on the cell
 * before it); users without a password, verified, holding their account's nothing-granting role.
 */
type ChangeRow = readonly [string, string, string, string];

interface ChangeEndpoint {
  name: string;
  expected: Record<MatrixCaller, ChangeRow>;
  request: (caller: Caller, target: Target) => Promise<Response>;
}

const ifMatchOf = async (userId: string) => {
  const row = await harness.deps.db
    .selectFrom('users')
    .select('version')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { 'If-Match': `"${row.version}"` };
};

/** A change that needs the manage permission, refuses oneself (G3) and a stronger user (G4). */
function changeRows(success: string): Record<MatrixCaller, ChangeRow> {
  return {
    system: ['403 ownUser', success, success, success],
    partner: ['403 ownUser', success, '403 userExceedsYours', '404'],
    'account admin': ['403 ownUser', success, '403 userExceedsYours', '404'],
    'account, all permissions': ['403 ownUser', success, success, '404'],
    auditor: ['403 forbidden', '403 forbidden', '403 forbidden', '404'],
    'no user permission': ['403 forbidden', '403 forbidden', '403 forbidden', '404'],
  };
}

/** A mail request: oneself is allowed where the permission is held (its own 409 then decides). */
function mailRows(own: string, ownWithout: string): Record<MatrixCaller, ChangeRow> {
  const rows = changeRows('204');
  const withOwn = (caller: MatrixCaller, cell: string): ChangeRow => {
    const [, managed, stronger, foreign] = rows[caller];
    return [cell, managed, stronger, foreign];
  };
  return {
    system: withOwn('system', own),
    partner: withOwn('partner', own),
    'account admin': withOwn('account admin', own),
    'account, all permissions': withOwn('account, all permissions', own),
    auditor: withOwn('auditor', ownWithout),
    'no user permission': withOwn('no user permission', ownWithout),
  };
}

const put = (caller: Caller, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(harness, 'PUT', path, { token: caller.token, body, headers });

const CHANGE_ENDPOINTS: ChangeEndpoint[] = [
  {
    name: 'DELETE user/{id}',
    expected: changeRows('204'),
    request: (caller, target) =>
      call(harness, 'DELETE', apiPaths.users.byId(target.userId), { token: caller.token }),
  },
  {
    name: 'DELETE user?ids=',
    expected: changeRows('204'),
    request: (caller, target) =>
      call(harness, 'DELETE', `${apiPaths.users.list}?ids=${target.userId}`, { token: caller.token }),
  },
  {
    name: 'PUT user/{id}/enable',
    expected: changeRows('204'),
    request: async (caller, target) =>
      put(caller, apiPaths.users.enable(target.userId), { enabled: false }, await ifMatchOf(target.userId)),
  },
  {
    name: 'PUT user/{id}/access (the roles it holds)',
    expected: changeRows('204'),
    request: async (caller, target) =>
      put(
        caller,
        apiPaths.users.access(target.userId),
        { account_ids: [], role_ids: [target.roleId] },
        await ifMatchOf(target.userId),
      ),
  },
  {
    name: 'DELETE user/{id}/mfa',
    expected: changeRows('409 noTwoFactor'),
    request: (caller, target) =>
      call(harness, 'DELETE', apiPaths.users.mfa(target.userId), { token: caller.token }),
  },
  {
    name: 'PUT user/{id}/email (reset mail)',
    expected: mailRows('204', '403 forbidden'),
    request: (caller, target) => put(caller, apiPaths.users.resetMail(target.userId)),
  },
  {
    name: 'PUT user/{id}/standard-login',
    expected: mailRows('409 hasPassword', '403 forbidden'),
    request: (caller, target) => put(caller, apiPaths.users.standardLogin(target.userId)),
  },
  {
    name: 'PUT user/{id}/resendSsoEmail',
    expected: mailRows('409 noSingleSignOn', '403 forbidden'),
    request: (caller, target) => put(caller, apiPaths.users.resendSsoEmail(target.userId)),
  },
  {
    // Resending one's own link needs no permission; callers are verified and have a password.
    name: 'PUT user/{id}/verification',
    expected: mailRows('409 conflict', '409 conflict'),
    request: (caller, target) => put(caller, apiPaths.users.verification(target.userId)),
  },
];

let strongRole: string;
beforeAll(async () => {
  strongRole = await insertCustomRole(harness, targets.managed.accountId, PERMISSION_NAMES);
});

async function freshTarget(caller: MatrixCaller, kind: TargetKind): Promise<Target> {
  if (kind === 'own') return ownTargets[caller];
  const accountId = targets[kind].accountId;
  const target = await targetIn(accountId, kind === 'stronger' ? [strongRole] : []);
  if (kind === 'managed' || kind === 'stronger' || kind === 'foreign') {
    await harness.deps.db
      .updateTable('users')
      .set({ saml_username: `${target.userName}@idp` })
      .where('id', '=', target.userId)
      .execute();
  }
  return target;
}

describe.each(CHANGE_ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => ({ caller, kind, cell: endpoint.expected[caller][index] ?? '' })),
  );

  it.each(cells)('$caller on $kind user → $cell', async ({ caller, kind, cell }) => {
    const [status, code] = cell.split(' ');
    const response = await endpoint.request(callers[caller], await freshTarget(caller, kind));
    expect(`${response.status}`).toBe(status);
    if (response.status >= 400) {
      const error = await errorOf(response);
      if (code !== undefined) expect(error.code).toBe(code);
      if (response.status === 404) expect(error.code).toBe('notFound');
    }
  });

  it('asks for a token', async () => {
    const response = await endpoint.request(
      { ...callers.system, token: '' },
      await freshTarget('system', 'managed'),
    );
    expect(response.status).toBe(401);
  });
});

describe('escalation attempts (decision 018 §3.5)', () => {
  it('1: granting oneself a role is 403 ownUser', async () => {
    const caller = callers['account admin'];
    const response = await put(
      caller,
      apiPaths.users.access(caller.id),
      { account_ids: [], role_ids: [strongRole] },
      await ifMatchOf(caller.id),
    );
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('ownUser');
  });

  it('2: assigning a role that grants a permission the caller lacks is 403 permissionNotHeld', async () => {
    await saveFeatureFlag(harness.deps.db, 'roles', true, harness.deps.now());
    const target = await freshTarget('account admin', 'managed');
    const response = await put(
      callers['account admin'],
      apiPaths.users.access(target.userId),
      { account_ids: [], role_ids: [target.roleId, strongRole] },
      await ifMatchOf(target.userId),
    );
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ field: 'role_ids', code: 'permissionNotHeld' });
  });

  it('5: a role of another account is 400 roleNotForUser in reach and 404 out of reach; System administrator to an account user is 400', async () => {
    const partner = callers.partner;
    const target = await freshTarget('partner', 'managed');
    // A role of the partner's own account: in reach, but not for a user of A.
    const otherAccountRole = await insertCustomRole(harness, partner.accountId, []);
    const inReach = await put(
      partner,
      apiPaths.users.access(target.userId),
      { account_ids: [], role_ids: [otherAccountRole] },
      await ifMatchOf(target.userId),
    );
    expect(inReach.status).toBe(400);
    expect(await errorOf(inReach)).toMatchObject({ field: 'role_ids', code: 'roleNotForUser' });
    const outOfReach = await put(
      partner,
      apiPaths.users.access(target.userId),
      { account_ids: [], role_ids: [targets.foreign.roleId] },
      await ifMatchOf(target.userId),
    );
    expect(outOfReach.status).toBe(404);
    const builtIn = await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
    const systemRole = await put(
      callers.system,
      apiPaths.users.access(target.userId),
      { account_ids: [], role_ids: [builtIn.system_administrator] },
      await ifMatchOf(target.userId),
    );
    expect(systemRole.status).toBe(400);
    expect((await errorOf(systemRole)).code).toBe('roleNotForUser');
  });

  it('8: sending a reset to, disabling or deleting a stronger user is 403 userExceedsYours', async () => {
    const caller = callers['account admin'];
    const attempts = [
      async (target: Target) => put(caller, apiPaths.users.resetMail(target.userId)),
      async (target: Target) =>
        put(caller, apiPaths.users.enable(target.userId), { enabled: false }, await ifMatchOf(target.userId)),
      async (target: Target) =>
        call(harness, 'DELETE', apiPaths.users.byId(target.userId), { token: caller.token }),
    ];
    for (const attempt of attempts) {
      const response = await attempt(await freshTarget('account admin', 'stronger'));
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe('userExceedsYours');
    }
  });

  it('11: disabling, deleting or stripping the last system administrator is 409 lastSystemAdministrator', async () => {
    const own = await createTestApp();
    try {
      const last = await own.createUser({ accessScope: 'system' });
      const other = await callerWith(own, { accessScope: 'system', permissions: PERMISSION_NAMES });
      const version = async () =>
        (
          await own.deps.db
            .selectFrom('users')
            .select('version')
            .where('id', '=', last.id)
            .executeTakeFirstOrThrow()
        ).version;
      const roleId = await own.deps.db
        .selectFrom('roles')
        .select('id')
        .where('code', '=', 'read_only_auditor')
        .executeTakeFirstOrThrow();
      const answers = [
        await call(own, 'PUT', apiPaths.users.enable(last.id), {
          token: other.token,
          body: { enabled: false },
          headers: { 'If-Match': `"${await version()}"` },
        }),
        await call(own, 'DELETE', apiPaths.users.byId(last.id), { token: other.token }),
        await call(own, 'DELETE', `${apiPaths.users.list}?ids=${last.id}`, { token: other.token }),
        await call(own, 'PUT', apiPaths.users.access(last.id), {
          token: other.token,
          body: { account_ids: [], role_ids: [roleId.id] },
          headers: { 'If-Match': `"${await version()}"` },
        }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(409);
        expect((await errorOf(answer)).code).toBe('lastSystemAdministrator');
      }
    } finally {
      await own.close();
    }
  });

  it('12: a verification or reset code on another user’s path, after the address changed, twice or expired is 400 linkExpired', async () => {
    const target = await freshTarget('system', 'managed');
    const other = await freshTarget('system', 'managed');
    const now = harness.deps.now();
    const issue = async (email: string, expiresAt: Date) => {
      const code = newOpaqueToken();
      await harness.deps.db
        .insertInto('user_tokens')
        .values({
          token_hash: hashOpaqueToken(code),
          user_id: target.userId,
          purpose: 'reset_password',
          email,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
      return code;
    };
    const email = `${target.userName}@example.com`;
    const later = new Date(now.getTime() + 3_600_000);
    const password = 'Escalation-Horse-12!';
    const reset = (userId: string, code: string) =>
      call(harness, 'POST', apiPaths.users.resetPassword(userId), {
        body: { reset_code: code, password, repeatedPassword: password },
      });
    const good = await issue(email, later);
    const attempts = [
      await reset(other.userId, good),
      await reset(target.userId, await issue('before@example.com', later)),
      await reset(target.userId, await issue(email, new Date(now.getTime() - 1000))),
    ];
    expect((await reset(target.userId, good)).status).toBe(204);
    attempts.push(await reset(target.userId, good));
    for (const answer of attempts) {
      expect(answer.status).toBe(400);
      expect(await errorOf(answer)).toMatchObject({ field: 'reset_code', code: 'linkExpired' });
    }
  });

  it('14: access_scope, enabled and role_ids in the body of PUT user/{id} are not part of its shape', () => {
    const parsed = v.parse(userUpdateSchema, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      user_name: 'ada',
      email: 'ada@example.com',
      phone: '',
      locale: 'en_US',
      access_scope: 'system',
      enabled: false,
      role_ids: ['x'],
    });
    expect(parsed).not.toHaveProperty('access_scope');
    expect(parsed).not.toHaveProperty('enabled');
    expect(parsed).not.toHaveProperty('role_ids');
  });
});
