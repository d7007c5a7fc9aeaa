import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { RoleList, UserList } from '../../../contract/schemas/users.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { CALLERS, type CallerKind, insertCustomRole, insertTestUser, matrixCallers } from './helpers.ts';

/**
 * Every read endpoint of users and roles (decision 018 slice 1), called by each kind of caller on
 * each kind of user (`CALLERS` of ./helpers.ts), with the exact status the server must answer. Users, from the caller's side:
 * - own: the caller itself;
 * - managed: a user of A, within every caller's reach;
 * - stronger: a user of A holding a custom role with every permission (reading is not restricted by it);
 * - foreign: a user of an account under another partner Q, out of reach except for system scope.
 * Each target user holds a custom role of its primary account that grants nothing, which the role
 * endpoints and the role filter address.
 */

const TARGETS = ['own', 'managed', 'stronger', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
/** Statuses for own, managed, stronger and foreign users. */
type Row = readonly [number, number, number, number];

interface Target {
  userId: string;
  userName: string;
  accountId: string;
  /** The custom role of the target's account that the target holds. */
  roleId: string;
}

interface Endpoint {
  name: string;
  expected: Record<CallerKind, Row>;
  request: (caller: Caller, target: Target) => Promise<Response>;
  /** For lists: whether the answer includes the target. */
  lists?: (response: Response, target: Target) => Promise<boolean>;
}

let harness: TestApp;
const callers = {} as Record<CallerKind, Caller>;
const targets = {} as Record<Exclude<TargetKind, 'own'>, Target>;
const ownTargets = {} as Record<CallerKind, Target>;
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
  const { accountA, accountB } = await matrixCallers(harness, callers);
  for (const kind of CALLERS) {
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

const targetFor = (caller: CallerKind, kind: TargetKind): Target =>
  kind === 'own' ? ownTargets[caller] : targets[kind];

const get = (caller: Caller, path: string) => call(harness, 'GET', path, { token: caller.token });
const userIds = async (response: Response) =>
  ((await response.json()) as UserList).items.map((item) => item.id);

const everywhere: Row = [200, 200, 200, 200];
const inReach: Row = [200, 200, 200, 404];
const reachThenPermission: Row = [403, 403, 403, 404];
/** Reads of one user, or of a list narrowed to one account or role, by the target's reach. */
const readsOfOne: Record<CallerKind, Row> = {
  system: everywhere,
  partner: inReach,
  'account admin': inReach,
  'account, all permissions': inReach,
  auditor: inReach,
  'no user permission': reachThenPermission,
};
/** Reads of a whole list: everyone who may read gets one, holding only what it reaches. */
const readsOfAll: Record<CallerKind, Row> = {
  system: everywhere,
  partner: everywhere,
  'account admin': everywhere,
  'account, all permissions': everywhere,
  auditor: everywhere,
  'no user permission': [403, 403, 403, 403],
};

const ENDPOINTS: Endpoint[] = [
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
  const cells = CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => ({ caller, kind, status: endpoint.expected[caller][index] ?? 0 })),
  );

  it.each(cells)('$caller on $kind user → $status', async ({ caller, kind, status }) => {
    const target = targetFor(caller, kind);
    const response = await endpoint.request(callers[caller], target);
    expect(response.status).toBe(status);
    if (status >= 400) {
      const error = await errorOf(response);
      expect(error.status).toBe(status);
      if (status === 404) expect(error.code).toBe('notFound');
      if (status === 403) expect(error.code).toBe('forbidden');
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
