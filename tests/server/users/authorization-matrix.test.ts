import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { RoleList, UserList } from '../../../contract/schemas/users.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
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
