import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { insertTestProfile, policy, uniqueProfileName } from './helpers.ts';

/**
 * Every profile endpoint, called by each kind of caller (`MATRIX_CALLERS`) on a profile of each kind
 * of account, each made fresh for its cell:
 * - own: the caller's primary account (the system account for system scope, P for the partner);
 * - managed: account A under partner P, within every caller's reach;
 * - foreign: account B under another partner Q, out of reach except for system scope (404).
 * The auditor views profiles but does not manage them; "no user permission" holds view account only.
 */

const TARGETS = ['own', 'managed', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
type Row = readonly [number, number, number];

interface Target {
  accountId: string;
  profileId: string;
}

interface Endpoint {
  name: string;
  expected: Record<MatrixCaller, Row>;
  request: (caller: Caller, target: Target) => Promise<Response>;
}

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
const accounts = {} as Record<Exclude<TargetKind, 'own'>, string>;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const made = await matrixCallers(harness);
  callers = made.callers;
  accounts.managed = made.accountA;
  accounts.foreign = made.accountB;
});
afterAll(() => harness.close());

async function targetFor(caller: Caller, kind: TargetKind): Promise<Target> {
  const accountId = kind === 'own' ? caller.accountId : accounts[kind];
  return { accountId, profileId: await insertTestProfile(harness, accountId) };
}

function writes(ok: number): Record<MatrixCaller, Row> {
  return {
    system: [ok, ok, ok],
    partner: [ok, ok, 404],
    'account admin': [ok, ok, 404],
    'account, all permissions': [ok, ok, 404],
    auditor: [403, 403, 404],
    'no user permission': [403, 403, 404],
  };
}

const reads: Record<MatrixCaller, Row> = {
  system: [200, 200, 200],
  partner: [200, 200, 404],
  'account admin': [200, 200, 404],
  'account, all permissions': [200, 200, 404],
  auditor: [200, 200, 404],
  'no user permission': [403, 403, 404],
};

const definition = () => ({ name: uniqueProfileName(), description: 'Matrix', policy: policy() });

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST profile (in the target’s account)',
    expected: writes(201),
    request: (caller, target) =>
      call(harness, 'POST', apiPaths.certificateProfiles.profiles, {
        token: caller.token,
        body: { ...definition(), account_id: target.accountId },
      }),
  },
  {
    name: 'GET profile/{id}',
    expected: reads,
    request: (caller, target) =>
      call(harness, 'GET', apiPaths.certificateProfiles.byId(target.profileId), { token: caller.token }),
  },
  {
    name: 'PUT profile/{id}',
    expected: writes(204),
    request: (caller, target) =>
      call(harness, 'PUT', apiPaths.certificateProfiles.byId(target.profileId), {
        token: caller.token,
        body: definition(),
        headers: { 'If-Match': '"1"' },
      }),
  },
  {
    name: 'DELETE profile/{id}',
    expected: writes(204),
    request: (caller, target) =>
      call(harness, 'DELETE', apiPaths.certificateProfiles.byId(target.profileId), { token: caller.token }),
  },
  {
    name: 'GET profile?account_id=',
    expected: reads,
    request: (caller, target) =>
      call(harness, 'GET', `${apiPaths.certificateProfiles.profiles}?account_id=${target.accountId}`, {
        token: caller.token,
      }),
  },
  {
    name: 'GET template?account_id=',
    expected: reads,
    request: (caller, target) =>
      call(harness, 'GET', `${apiPaths.certificateProfiles.templates}?account_id=${target.accountId}`, {
        token: caller.token,
      }),
  },
  {
    name: 'GET account/{id}/template',
    expected: reads,
    request: (caller, target) =>
      call(harness, 'GET', apiPaths.certificateProfiles.accountTemplates(target.accountId), {
        token: caller.token,
      }),
  },
  {
    name: 'GET account/{id}/profile',
    expected: reads,
    request: (caller, target) =>
      call(harness, 'GET', apiPaths.certificateProfiles.accountProfiles(target.accountId), {
        token: caller.token,
      }),
  },
];

const DEFAULT_CODE: Record<number, string> = { 403: 'forbidden', 404: 'notFound' };

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = MATRIX_CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => ({ caller, kind, status: endpoint.expected[caller][index] ?? 0 })),
  );

  it.each(cells)('$caller on a $kind profile → $status', async ({ caller, kind, status }) => {
    const target = await targetFor(callers[caller], kind);
    const before = await profileRow(target.profileId);
    const response = await endpoint.request(callers[caller], target);
    expect(response.status).toBe(status);
    if (status >= 400) {
      const error = await errorOf(response);
      expect(error.code).toBe(DEFAULT_CODE[status]);
      // A refused change leaves the profile as it was.
      expect(await profileRow(target.profileId)).toEqual(before);
    }
  });

  it('asks for a token', async () => {
    const target = await targetFor(callers.system, 'managed');
    const response = await endpoint.request({ ...callers.system, token: '' }, target);
    expect(response.status).toBe(401);
  });
});

describe('lists', () => {
  it('hold only the profiles of the accounts the caller reaches', async () => {
    const inA = await insertTestProfile(harness, accounts.managed);
    const inB = await insertTestProfile(harness, accounts.foreign);
    for (const [caller, seesB] of [
      ['system', true],
      ['partner', false],
      ['account admin', false],
    ] as const) {
      for (const path of [apiPaths.certificateProfiles.profiles, apiPaths.certificateProfiles.templates]) {
        const response = await call(harness, 'GET', `${path}?limit=99999999`, {
          token: callers[caller].token,
        });
        expect(response.status).toBe(200);
        const ids = ((await response.json()) as { items: { id: string }[] }).items.map((item) => item.id);
        expect(ids).toContain(inA);
        expect(ids.includes(inB)).toBe(seesB);
      }
    }
  });
});

function profileRow(id: string) {
  return harness.deps.db
    .selectFrom('certificate_profiles')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}
