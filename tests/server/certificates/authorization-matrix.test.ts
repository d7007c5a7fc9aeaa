import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { CertificateList } from '../../../contract/schemas/certificates.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { insertTestCertificate, insertTestHierarchy, type TestHierarchy } from './helpers.ts';

/**
 * The certificates rows of the authorization matrix: each caller of tests/server/users/matrix-callers.ts
 * on a certificate of account A (under partner P, the callers' own) and one of account B (under
 * another partner): out of reach is 404 as a missing certificate; within reach, reading needs view
 * certificate and downloading the same, so the auditor reads and the caller with view account only
 * gets 403. Revocation (which needs the working CA) is in revoke.test.ts.
 */

const TARGETS = ['own account', 'foreign account'] as const;
type TargetKind = (typeof TARGETS)[number];
type Cell = readonly [number, ApiErrorCode?];
type Row = readonly [Cell, Cell];

const ok = (status: number): Cell => [status];
const notFound: Cell = [404, 'notFound'];
const forbidden: Cell = [403, 'forbidden'];

let harness: TestApp;
let hierarchy: TestHierarchy;
let callers: Record<MatrixCaller, Caller>;
const targets = {} as Record<TargetKind, string>;

beforeAll(async () => {
  harness = await createTestApp();
  hierarchy = await insertTestHierarchy(harness);
  const made = await matrixCallers(harness);
  callers = made.callers;
  targets['own account'] = (
    await insertTestCertificate(harness, hierarchy, {
      commonName: 'own.example.com',
      accountId: made.accountA,
    })
  ).id;
  targets['foreign account'] = (
    await insertTestCertificate(harness, hierarchy, {
      commonName: 'foreign.example.com',
      accountId: made.accountB,
    })
  ).id;
});
afterAll(() => harness.close());

const READ: Record<MatrixCaller, Row> = {
  system: [ok(200), ok(200)],
  partner: [ok(200), notFound],
  'account admin': [ok(200), notFound],
  'account, all permissions': [ok(200), notFound],
  auditor: [ok(200), notFound],
  'no user permission': [forbidden, notFound],
};

const ENDPOINTS: {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, id: string) => Promise<Response>;
}[] = [
  {
    name: 'GET certificate/{id}',
    expected: READ,
    request: (caller, id) => call(harness, 'GET', apiPaths.certificates.byId(id), { token: caller.token }),
  },
  {
    name: 'GET certificate/export?format=der',
    expected: READ,
    request: (caller, id) =>
      call(harness, 'GET', `${apiPaths.certificates.export}?format=der&id=${id}`, { token: caller.token }),
  },
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => {
      const [status, code] = endpoint.expected[caller][index] ?? [0];
      return { caller, kind, status, code };
    }),
  );

  it.each(cells)(
    '$caller on a certificate of the $kind → $status $code',
    async ({ caller, kind, status, code }) => {
      const response = await endpoint.request(callers[caller], targets[kind]);
      expect(response.status).toBe(status);
      if (code !== undefined) expect((await errorOf(response)).code).toBe(code);
    },
  );

  it('asks for a credential', async () => {
    const response = await endpoint.request({ ...callers.system, token: '' }, targets['own account']);
    expect(response.status).toBe(401);
  });
});

describe('GET certificate', () => {
  const SEES: Record<MatrixCaller, readonly TargetKind[] | 403> = {
    system: ['own account', 'foreign account'],
    partner: ['own account'],
    'account admin': ['own account'],
    'account, all permissions': ['own account'],
    auditor: ['own account'],
    'no user permission': 403,
  };

  it.each(MATRIX_CALLERS)('%s sees the certificates of the accounts it reaches only', async (caller) => {
    const response = await call(harness, 'GET', apiPaths.certificates.list, { token: callers[caller].token });
    const expected = SEES[caller];
    if (expected === 403) {
      expect(response.status).toBe(403);
      return;
    }
    expect(response.status).toBe(200);
    const page = (await response.json()) as CertificateList;
    const seen = page.items.map((item) => item.id);
    expect(seen.sort()).toEqual(expected.map((kind) => targets[kind]).sort());
    expect(page.total).toBe(expected.length);
  });

  it('answers 404 for an account filter out of reach, and for the CSV of it', async () => {
    const foreign = await harness.deps.db
      .selectFrom('certificates')
      .select('account_id')
      .where('id', '=', targets['foreign account'])
      .executeTakeFirstOrThrow();
    const query = `account_id=${foreign.account_id}`;
    const listed = await call(harness, 'GET', `${apiPaths.certificates.list}?${query}`, {
      token: callers.partner.token,
    });
    expect(listed.status).toBe(404);
    const exported = await call(harness, 'GET', `${apiPaths.certificates.export}?format=csv&${query}`, {
      token: callers.partner.token,
    });
    expect(exported.status).toBe(404);
  });
});
