import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';

/**
 * Every write endpoint of roles (decision 018 slice 4) and the unique-name check, called by each kind
 * of caller (`MATRIX_CALLERS` of ../users/matrix-callers.ts) on each kind of role, with the exact status and code
 * the server must answer. Roles, from the caller's side, each made fresh for its cell:
 * - own: a role of the caller's primary account that the caller holds;
 * - managed: a role of account A, within every caller's reach;
 * - stronger: a role of A granting every permission, which only a caller holding them all may change;
 * - foreign: a role of an account under another partner Q, out of reach except for system scope.
 * Every body grants view user, which each caller allowed to define roles holds. Assigning addresses
 * the user of the target instead: the caller itself, a user of A, one of A holding every permission,
 * and one of B.
 */

const TARGETS = ['own', 'managed', 'stronger', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
/** Status (and code where it is not the status's own) for own, managed, stronger and foreign roles. */
type Cell = number | readonly [number, string];
type Row = readonly [Cell, Cell, Cell, Cell];

interface Target {
  accountId: string;
  roleId: string;
  /** A user of that account: the caller itself for own, one holding every permission for stronger. */
  userId: string;
}

interface Endpoint {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, target: Target) => Promise<Response>;
}

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
const accounts = {} as Record<Exclude<TargetKind, 'own'>, string>;
const users = {} as Record<Exclude<TargetKind, 'own'>, string>;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const made = await matrixCallers(harness);
  callers = made.callers;
  const { accountA, accountB } = made;
  accounts.managed = accountA;
  accounts.stronger = accountA;
  accounts.foreign = accountB;
  users.managed = await insertTestUser(harness, { accountId: accountA, userName: 'matrix-managed' });
  users.stronger = await insertTestUser(harness, {
    accountId: accountA,
    userName: 'matrix-stronger',
    roleIds: [await insertCustomRole(harness, accountA, PERMISSION_NAMES)],
  });
  users.foreign = await insertTestUser(harness, { accountId: accountB, userName: 'matrix-foreign' });
});
afterAll(() => harness.close());

/** A fresh role for one cell, so no cell sees another's change. */
async function targetFor(caller: Caller, kind: TargetKind): Promise<Target> {
  const accountId = kind === 'own' ? caller.accountId : accounts[kind];
  const roleId = await insertCustomRole(harness, accountId, kind === 'stronger' ? PERMISSION_NAMES : []);
  if (kind === 'own') {
    await harness.deps.db.insertInto('user_roles').values({ user_id: caller.id, role_id: roleId }).execute();
  }
  return { accountId, roleId, userId: kind === 'own' ? caller.id : users[kind] };
}

const definition = () => ({
  name: `Matrix ${Math.random().toString(36).slice(2, 10)}`,
  description: 'Reads users',
  permissions: ['VIEW_USER'],
});
const ifMatch = { 'If-Match': '"1"' };

const STRONGER = [403, 'roleExceedsYours'] as const;
const OWN_USER = [403, 'ownUser'] as const;
const USER_STRONGER = [403, 'userExceedsYours'] as const;
function writes(ok: number, onStronger: Cell): Record<MatrixCaller, Row> {
  return {
    system: [ok, ok, ok, ok],
    partner: [ok, ok, onStronger, 404],
    'account admin': [ok, ok, onStronger, 404],
    'account, all permissions': [ok, ok, ok, 404],
    auditor: [403, 403, 403, 404],
    'no user permission': [403, 403, 403, 404],
  };
}

/** Reads about a role or its account: whoever reads roles, within reach. */
const readsInReach: Record<MatrixCaller, Row> = {
  system: [200, 200, 200, 200],
  partner: [200, 200, 200, 404],
  'account admin': [200, 200, 200, 404],
  'account, all permissions': [200, 200, 200, 404],
  auditor: [200, 200, 200, 404],
  'no user permission': [403, 403, 403, 404],
};

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST role (in the target role’s account)',
    // Creating in an account says nothing of the roles already in it.
    expected: writes(201, 201),
    request: (caller, target) =>
      call(harness, 'POST', apiPaths.roles.list, {
        token: caller.token,
        body: { ...definition(), application_id: 'account_manager', account_id: target.accountId },
      }),
  },
  {
    name: 'POST role cloned from the target role',
    expected: writes(201, 201),
    request: (caller, target) =>
      call(harness, 'POST', apiPaths.roles.list, {
        token: caller.token,
        body: {
          ...definition(),
          application_id: 'account_manager',
          account_id: target.accountId,
          cloned_from: target.roleId,
        },
      }),
  },
  {
    name: 'PUT role/{id}',
    expected: writes(204, STRONGER),
    request: (caller, target) =>
      call(harness, 'PUT', apiPaths.roles.byId(target.roleId), {
        token: caller.token,
        body: definition(),
        headers: ifMatch,
      }),
  },
  {
    name: 'DELETE role/{id} (archive)',
    expected: writes(204, STRONGER),
    request: (caller, target) =>
      call(harness, 'DELETE', apiPaths.roles.byId(target.roleId), { token: caller.token, headers: ifMatch }),
  },
  {
    name: 'GET role/unique (in the target role’s account)',
    expected: readsInReach,
    request: (caller, target) =>
      call(
        harness,
        'GET',
        `${apiPaths.roles.unique}?application_id=account_manager&account_id=${target.accountId}&name=Free`,
        { token: caller.token },
      ),
  },
  {
    name: 'PUT role/{id}/users (giving a role of the target’s account, granting nothing, to the target user)',
    expected: {
      system: [OWN_USER, 204, 204, 204],
      partner: [OWN_USER, 204, USER_STRONGER, 404],
      'account admin': [OWN_USER, 204, USER_STRONGER, 404],
      'account, all permissions': [OWN_USER, 204, 204, 404],
      auditor: [403, 403, 403, 404],
      'no user permission': [403, 403, 403, 404],
    },
    request: (caller, target) =>
      call(harness, 'PUT', apiPaths.roles.users(target.roleId), {
        token: caller.token,
        body: { add: [target.userId] },
      }),
  },
  {
    name: 'GET permissiongroup (for the target role’s account)',
    expected: readsInReach,
    request: (caller, target) =>
      call(
        harness,
        'GET',
        `${apiPaths.permissionGroups}?application_id=account_manager&account_id=${target.accountId}`,
        {
          token: caller.token,
        },
      ),
  },
  {
    name: 'GET role/export?account_id= (the target role’s account)',
    expected: readsInReach,
    request: (caller, target) =>
      call(harness, 'GET', `${apiPaths.roles.export}?account_id=${target.accountId}`, {
        token: caller.token,
      }),
  },
  {
    name: 'GET role/{id}/users',
    expected: readsInReach,
    request: (caller, target) =>
      call(harness, 'GET', apiPaths.roles.users(target.roleId), { token: caller.token }),
  },
];

const DEFAULT_CODE: Record<number, string> = { 403: 'forbidden', 404: 'notFound' };

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => {
      const cell = endpoint.expected[caller][index] ?? 0;
      const [status, code] = typeof cell === 'number' ? [cell, DEFAULT_CODE[cell]] : cell;
      return { caller, kind, status, code };
    }),
  );

  it.each(cells)('$caller on $kind role → $status', async ({ caller, kind, status, code }) => {
    const target = await targetFor(callers[caller], kind);
    const before = await roleRow(target.roleId);
    const response = await endpoint.request(callers[caller], target);
    expect(response.status).toBe(status);
    if (status >= 400) {
      const error = await errorOf(response);
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      // A refused change leaves the role as it was.
      expect(await roleRow(target.roleId)).toEqual(before);
    }
  });

  it('asks for a token', async () => {
    const target = await targetFor(callers.system, 'managed');
    const response = await endpoint.request({ ...callers.system, token: '' }, target);
    expect(response.status).toBe(401);
  });
});

function roleRow(id: string) {
  return harness.deps.db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
