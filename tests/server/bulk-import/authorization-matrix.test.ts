import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { csvOf, goodUsers, rowsOf, upload } from './helpers.ts';

/**
 * POST user/bulk/validate by each kind of caller of decision 018 §3.5 on account A (under partner P,
 * within every caller's reach) and account B (under another partner, foreign to all but system
 * scope): 404 out of reach before 403 without the permission, and the role a row names judged the same
 * way whether it is another account's or does not exist (escalation 10).
 */

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
let accountA: string;
let accountB: string;

/** Status for account A and account B. */
const EXPECTED: Record<MatrixCaller, readonly [number, number]> = {
  system: [200, 200],
  partner: [200, 404],
  'account admin': [200, 404],
  'account, all permissions': [200, 404],
  auditor: [403, 404],
  'no user permission': [403, 404],
};

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const made = await matrixCallers(harness);
  callers = made.callers;
  accountA = made.accountA;
  accountB = made.accountB;
  await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
  await insertCustomRole(harness, accountB, ['VIEW_USER'], 'Only in B');
});
afterAll(() => harness.close());

describe('POST user/bulk/validate', () => {
  it.each(MATRIX_CALLERS)('answers %s as the matrix says', async (name) => {
    const caller = callers[name];
    const [inA, inB] = EXPECTED[name];
    const file = csvOf([{ ...goodUsers(`m-${name.replaceAll(/\W/g, '')}`, 1)[0], roles: 'Only in B' }]);
    const a = await upload(harness, caller, file, { accountId: accountA });
    expect(a.status).toBe(inA);
    if (inA === 200) {
      // Another account's role is unknown here, exactly as one that does not exist.
      const job = (await a.json()) as { id: string };
      const [row] = (await rowsOf(harness, caller, job.id)).items;
      expect(row?.errors).toEqual([{ column: 'roles', code: 'unknownRole' }]);
    } else {
      expect((await errorOf(a)).code).toBe('forbidden');
    }
    const b = await upload(harness, caller, file, { accountId: accountB });
    expect(b.status).toBe(inB);
  });

  it('lets nobody read another caller’s job, whatever their scope', async () => {
    const created = await upload(harness, callers['account admin'], csvOf(goodUsers('mine', 1)), {
      accountId: accountA,
    });
    const job = (await created.json()) as { id: string };
    for (const name of MATRIX_CALLERS.filter((caller) => caller !== 'account admin')) {
      const response = await call(harness, 'GET', apiPaths.users.bulkRows(job.id), {
        token: callers[name].token,
      });
      expect(response.status, name).toBe(404);
    }
  });
});
