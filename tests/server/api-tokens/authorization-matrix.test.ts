import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import { insertApiToken } from '../../../server/api-tokens/repository.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';

/**
 * The API-token rows of the authorization matrix (decision 018 §3.5): every token route called by each
 * kind of caller on each kind of user, with the exact status and code. Callers are those of
 * tests/server/users/matrix-callers.ts, users as in tests/server/users/authorization-matrix.test.ts: own is the caller itself; managed a user of account
 * A (under partner P) holding nothing; stronger a user of A holding every permission; foreign a user
 * of an account under another partner Q. A token is made for a person by that person only (G7, 403
 * `ownUserOnly` whatever the caller may do), and revoked by its owner or by whoever may change the
 * owner and holds all the owner holds (G4, 403 `userExceedsYours`).
 */

const TARGETS = ['own', 'managed', 'stronger', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
/** A status, with the error code it must carry when it is a refusal. */
type Cell = readonly [number, ApiErrorCode?];
type Row = readonly [Cell, Cell, Cell, Cell];

const ok = (status: number): Cell => [status];
const notFound: Cell = [404, 'notFound'];
const forbidden: Cell = [403, 'forbidden'];
const ownUserOnly: Cell = [403, 'ownUserOnly'];
const exceeds: Cell = [403, 'userExceedsYours'];

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
const targets = {} as Record<Exclude<TargetKind, 'own'>, string>;

beforeAll(async () => {
  harness = await createTestApp();
  const made = await matrixCallers(harness);
  callers = made.callers;
  const { accountA, accountB } = made;
  targets.managed = await insertTestUser(harness, { accountId: accountA });
  targets.stronger = await insertTestUser(harness, {
    accountId: accountA,
    roleIds: [await insertCustomRole(harness, accountA, PERMISSION_NAMES)],
  });
  targets.foreign = await insertTestUser(harness, { accountId: accountB });
});
afterAll(() => harness.close());

const userOf = (caller: MatrixCaller, kind: TargetKind) =>
  kind === 'own' ? callers[caller].id : targets[kind];

/** A fresh token of `userId`, so every cell revokes or edits one of its own. */
async function tokenOf(userId: string): Promise<string> {
  const token = await insertApiToken(
    harness.deps.db,
    { userId, name: `Matrix ${Math.random().toString(36).slice(2, 10)}`, endDate: null, createdBy: userId },
    harness.deps.now(),
  );
  return token.id;
}

const ENDPOINTS: {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, userId: string) => Promise<Response>;
}[] = [
  {
    name: 'GET user/{id}/api-tokens',
    expected: {
      system: [ok(200), ok(200), ok(200), ok(200)],
      partner: [ok(200), ok(200), ok(200), notFound],
      'account admin': [ok(200), ok(200), ok(200), notFound],
      'account, all permissions': [ok(200), ok(200), ok(200), notFound],
      auditor: [ok(200), ok(200), ok(200), notFound],
      'no user permission': [ok(200), forbidden, forbidden, notFound],
    },
    request: (caller, userId) =>
      call(harness, 'GET', apiPaths.users.apiTokens(userId), { token: caller.token }),
  },
  {
    name: 'POST user/{id}/api-tokens',
    expected: {
      system: [ok(201), ownUserOnly, ownUserOnly, ownUserOnly],
      partner: [ok(201), ownUserOnly, ownUserOnly, notFound],
      'account admin': [ok(201), ownUserOnly, ownUserOnly, notFound],
      'account, all permissions': [ok(201), ownUserOnly, ownUserOnly, notFound],
      auditor: [ok(201), ownUserOnly, ownUserOnly, notFound],
      'no user permission': [ok(201), ownUserOnly, ownUserOnly, notFound],
    },
    request: (caller, userId) =>
      call(harness, 'POST', apiPaths.users.apiTokens(userId), {
        token: caller.token,
        body: { name: `Matrix ${Math.random().toString(36).slice(2, 10)}`, end_date: null },
      }),
  },
  {
    name: 'PUT user/{id}/api-tokens/{tokenId}',
    expected: {
      system: [ok(204), ownUserOnly, ownUserOnly, ownUserOnly],
      partner: [ok(204), ownUserOnly, exceeds, notFound],
      'account admin': [ok(204), ownUserOnly, exceeds, notFound],
      'account, all permissions': [ok(204), ownUserOnly, ownUserOnly, notFound],
      auditor: [ok(204), forbidden, forbidden, notFound],
      'no user permission': [ok(204), forbidden, forbidden, notFound],
    },
    request: async (caller, userId) =>
      call(harness, 'PUT', apiPaths.users.apiToken(userId, await tokenOf(userId)), {
        token: caller.token,
        body: { end_date: '2099-12-31' },
      }),
  },
  {
    name: 'DELETE user/{id}/api-tokens/{tokenId}',
    expected: {
      system: [ok(204), ok(204), ok(204), ok(204)],
      partner: [ok(204), ok(204), exceeds, notFound],
      'account admin': [ok(204), ok(204), exceeds, notFound],
      'account, all permissions': [ok(204), ok(204), ok(204), notFound],
      auditor: [ok(204), forbidden, forbidden, notFound],
      'no user permission': [ok(204), forbidden, forbidden, notFound],
    },
    request: async (caller, userId) =>
      call(harness, 'DELETE', apiPaths.users.apiToken(userId, await tokenOf(userId)), {
        token: caller.token,
      }),
  },
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => {
      const [status, code] = endpoint.expected[caller][index] ?? [0];
      return { caller, kind, status, code };
    }),
  );

  it.each(cells)('$caller on $kind user → $status $code', async ({ caller, kind, status, code }) => {
    const response = await endpoint.request(callers[caller], userOf(caller, kind));
    expect(response.status).toBe(status);
    if (code !== undefined) expect((await errorOf(response)).code).toBe(code);
  });

  it('asks for a credential', async () => {
    const response = await endpoint.request({ ...callers.system, token: '' }, targets.managed);
    expect(response.status).toBe(401);
  });
});
