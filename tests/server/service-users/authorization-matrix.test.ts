import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import type { ServiceUserList } from '../../../contract/schemas/service-users.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { insertTestServiceUser, tokenFor } from './helpers.ts';

/**
 * The service-user rows of the authorization matrix (decision 018 §3.5): every service-user route
 * called by each kind of caller (tests/server/users/matrix-callers.ts) on each kind of service user:
 * - managed: a service user of account A (under partner P) holding nothing;
 * - stronger: a service user of A holding every permission (G4: only a caller holding as much changes it);
 * - foreign: a service user of account B under another partner Q, out of reach but for system scope.
 * Every changing cell works on a service user of its own, so no cell depends on another.
 */

const TARGETS = ['managed', 'stronger', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
type Cell = readonly [number, ApiErrorCode?];
type Row = readonly [Cell, Cell, Cell];

const ok = (status: number): Cell => [status];
const notFound: Cell = [404, 'notFound'];
const forbidden: Cell = [403, 'forbidden'];
const exceeds: Cell = [403, 'userExceedsYours'];
const notHeld: Cell = [403, 'permissionNotHeld'];

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
let accountOf: Record<TargetKind, string>;
/** A custom role of the target's account: granting nothing, or every permission for `stronger`. */
const roleOf = {} as Record<TargetKind, string>;
let creator: string;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const made = await matrixCallers(harness);
  callers = made.callers;
  accountOf = { managed: made.accountA, stronger: made.accountA, foreign: made.accountB };
  roleOf.managed = await insertCustomRole(harness, made.accountA, ['VIEW_USER']);
  roleOf.stronger = await insertCustomRole(harness, made.accountA, PERMISSION_NAMES);
  roleOf.foreign = await insertCustomRole(harness, made.accountB, ['VIEW_USER']);
  creator = callers.system.id;
});
afterAll(() => harness.close());

/** A fresh service user of the target's kind. */
async function serviceUser(kind: TargetKind): Promise<string> {
  const { id } = await insertTestServiceUser(harness, {
    accountId: accountOf[kind],
    createdBy: creator,
    roleIds: kind === 'stronger' ? [roleOf.stronger] : [],
  });
  return id;
}

const reads: Record<MatrixCaller, Row> = {
  system: [ok(200), ok(200), ok(200)],
  partner: [ok(200), ok(200), notFound],
  'account admin': [ok(200), ok(200), notFound],
  'account, all permissions': [ok(200), ok(200), notFound],
  auditor: [ok(200), ok(200), notFound],
  'no user permission': [forbidden, forbidden, notFound],
};

function changes(status: number): Record<MatrixCaller, Row> {
  return {
    system: [ok(status), ok(status), ok(status)],
    partner: [ok(status), exceeds, notFound],
    'account admin': [ok(status), exceeds, notFound],
    'account, all permissions': [ok(status), ok(status), notFound],
    auditor: [forbidden, forbidden, notFound],
    'no user permission': [forbidden, forbidden, notFound],
  };
}

const ifMatchOne = { 'If-Match': '"1"' };

const ENDPOINTS: {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, kind: TargetKind) => Promise<Response>;
  /** For lists: whether the answer includes the target. */
  lists?: (response: Response, id: string) => Promise<boolean>;
  target?: (kind: TargetKind) => Promise<string>;
}[] = [
  {
    name: 'GET service-user?account_id= (the target’s account)',
    expected: reads,
    request: (caller, kind) =>
      call(harness, 'GET', `${apiPaths.serviceUsers.list}?account_id=${accountOf[kind]}&limit=1000`, {
        token: caller.token,
      }),
  },
  {
    name: 'GET service-user/export?account_id= (the target’s account)',
    expected: reads,
    request: (caller, kind) =>
      call(harness, 'GET', `${apiPaths.serviceUsers.export}?account_id=${accountOf[kind]}`, {
        token: caller.token,
      }),
  },
  {
    name: 'POST service-user (in the target’s account, with its role)',
    expected: {
      system: [ok(201), ok(201), ok(201)],
      partner: [ok(201), notHeld, notFound],
      'account admin': [ok(201), notHeld, notFound],
      'account, all permissions': [ok(201), ok(201), notFound],
      auditor: [forbidden, forbidden, notFound],
      'no user permission': [forbidden, forbidden, notFound],
    },
    request: (caller, kind) =>
      call(harness, 'POST', apiPaths.serviceUsers.list, {
        token: caller.token,
        body: {
          name: `matrix ${Math.random().toString(36).slice(2, 10)}`,
          email: 'owner@example.com',
          primary_account_id: accountOf[kind],
          role_ids: [roleOf[kind]],
        },
      }),
  },
  {
    name: 'GET service-user/{id}',
    expected: reads,
    request: async (caller, kind) =>
      call(harness, 'GET', apiPaths.serviceUsers.byId(await serviceUser(kind)), { token: caller.token }),
  },
  {
    name: 'PUT service-user/{id}',
    expected: changes(204),
    request: async (caller, kind) =>
      call(harness, 'PUT', apiPaths.serviceUsers.byId(await serviceUser(kind)), {
        token: caller.token,
        headers: ifMatchOne,
        body: {
          name: `renamed ${Math.random().toString(36).slice(2, 10)}`,
          description: '',
          email: 'x@example.com',
          end_date: null,
        },
      }),
  },
  {
    name: 'PUT service-user/{id}/access (a role of its account granting view user)',
    expected: changes(204),
    request: async (caller, kind) =>
      call(harness, 'PUT', apiPaths.serviceUsers.access(await serviceUser(kind)), {
        token: caller.token,
        headers: ifMatchOne,
        body: { account_ids: [], role_ids: [kind === 'foreign' ? roleOf.foreign : roleOf.managed] },
      }),
  },
  {
    name: 'PUT service-user/{id}/enable',
    expected: changes(204),
    request: async (caller, kind) =>
      call(harness, 'PUT', apiPaths.serviceUsers.enable(await serviceUser(kind)), {
        token: caller.token,
        headers: ifMatchOne,
        body: { enabled: false },
      }),
  },
  {
    name: 'DELETE service-user/{id}',
    expected: changes(204),
    request: async (caller, kind) =>
      call(harness, 'DELETE', apiPaths.serviceUsers.byId(await serviceUser(kind)), { token: caller.token }),
  },
  {
    name: 'GET service-user/{id}/api-tokens',
    expected: reads,
    request: async (caller, kind) =>
      call(harness, 'GET', apiPaths.serviceUsers.apiTokens(await serviceUser(kind)), { token: caller.token }),
  },
  {
    name: 'POST service-user/{id}/api-tokens',
    expected: changes(201),
    request: async (caller, kind) =>
      call(harness, 'POST', apiPaths.serviceUsers.apiTokens(await serviceUser(kind)), {
        token: caller.token,
        body: { name: 'Matrix', end_date: null },
      }),
  },
  {
    name: 'PUT service-user/{id}/api-tokens/{tokenId}',
    expected: changes(204),
    request: async (caller, kind) => {
      const id = await serviceUser(kind);
      const token = await tokenFor(harness, id);
      return call(harness, 'PUT', apiPaths.serviceUsers.apiToken(id, token.id), {
        token: caller.token,
        body: { end_date: '2099-12-31' },
      });
    },
  },
  {
    name: 'DELETE service-user/{id}/api-tokens/{tokenId}',
    expected: changes(204),
    request: async (caller, kind) => {
      const id = await serviceUser(kind);
      const token = await tokenFor(harness, id);
      return call(harness, 'DELETE', apiPaths.serviceUsers.apiToken(id, token.id), { token: caller.token });
    },
  },
];

describe.each(ENDPOINTS)('$name', ({ expected, request }) => {
  it.each(MATRIX_CALLERS)('as %s', async (caller) => {
    for (const [index, kind] of TARGETS.entries()) {
      const [status, code] = expected[caller][index] ?? [0];
      const response = await request(callers[caller], kind);
      expect(`${kind}: ${response.status}`).toBe(`${kind}: ${status}`);
      if (code !== undefined) expect(`${kind}: ${(await errorOf(response)).code}`).toBe(`${kind}: ${code}`);
    }
  });
});

describe('the list as a whole', () => {
  it('holds only the service users each caller reaches, and totals count only those', async () => {
    const ids = { managed: await serviceUser('managed'), foreign: await serviceUser('foreign') };
    for (const caller of ['partner', 'account admin', 'account, all permissions', 'auditor'] as const) {
      for (const query of ['?limit=1000', '?sort=account:desc&limit=1000', '?q=svc&limit=1000']) {
        const response = await call(harness, 'GET', `${apiPaths.serviceUsers.list}${query}`, {
          token: callers[caller].token,
        });
        const list = (await response.json()) as ServiceUserList;
        const listed = list.items.map((item) => item.id);
        expect(listed).toContain(ids.managed);
        expect(listed).not.toContain(ids.foreign);
        expect(list.total).toBe(list.items.length);
      }
      const csv = await call(harness, 'GET', apiPaths.serviceUsers.export, { token: callers[caller].token });
      const text = await csv.text();
      const foreignName = await harness.deps.db
        .selectFrom('users')
        .select('user_name')
        .where('id', '=', ids.foreign)
        .executeTakeFirstOrThrow();
      expect(text).not.toContain(foreignName.user_name);
    }
  });
});
