import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { TenantList } from '../../../contract/schemas/tenants.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { daysFromToday, fixedClock, insertAccount, newTenantForm, signedInUser } from './helpers.ts';

/**
 * Every accounts endpoint, called by each kind of caller on each kind of account, with the exact
 * status the server must answer. Callers:
 * - system: the built-in system administrator;
 * - partner: the partner administrator of partner account P;
 * - account admin: the built-in account administrator (no manage-account permission);
 * - account, all permissions: account scope holding every permission, so scope alone refuses.
 * Accounts, from the caller's side:
 * - own: the caller's primary account (the System Account for system scope);
 * - managed: one it manages (system: any account; partner: one under P) or, for account scope, one
 *   it was added to (visible, not manageable);
 * - foreign: an account under another partner Q: out of sight except for system scope.
 * Every non-own account is new for its cell and linked to an external identity product, so a change
 * in one cell cannot decide another.
 */

const CALLERS = ['system', 'partner', 'account admin', 'account, all permissions'] as const;
type CallerKind = (typeof CALLERS)[number];
const TARGETS = ['own', 'managed', 'foreign'] as const;
type TargetKind = (typeof TARGETS)[number];
/** Statuses for own, managed and foreign accounts. */
type Row = readonly [number, number, number];

interface Endpoint {
  name: string;
  expected: Record<CallerKind, Row>;
  request: (caller: Caller, target: string, kind: TargetKind) => Promise<Response>;
  /** For lists: whether the answer must include the target account. */
  lists?: (response: Response, target: string) => Promise<boolean>;
}

let harness: TestApp;
let partnerP: string;
let partnerQ: string;
const callers = {} as Record<CallerKind, Caller>;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  await harness.installLicence();
  partnerP = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  const accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partnerP });
  callers.system = await signedInUser(harness, { accessScope: 'system' });
  callers.partner = await signedInUser(harness, { accessScope: 'partner', accountId: partnerP });
  callers['account admin'] = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
  callers['account, all permissions'] = await callerWith(harness, {
    accessScope: 'account',
    accountId: accountA,
    permissions: PERMISSION_NAMES,
  });
});
afterAll(() => harness.close());

async function targetFor(caller: CallerKind, kind: TargetKind): Promise<string> {
  if (kind === 'own') return callers[caller].accountId;
  const linked = { federation: { status: 'linked' as const } };
  if (kind === 'foreign') return insertAccount(harness, { partnerAccountId: partnerQ, ...linked });
  if (caller === 'partner') return insertAccount(harness, { partnerAccountId: partnerP, ...linked });
  const id = await insertAccount(harness, linked);
  if (caller !== 'system') {
    await harness.deps.db
      .insertInto('user_accounts')
      .values({ user_id: callers[caller].id, account_id: id })
      .execute();
  }
  return id;
}

/** An edit that keeps the service period, so only who may edit decides the answer. */
async function editOf(id: string) {
  const account = await harness.deps.db
    .selectFrom('accounts')
    .select(['service_from', 'service_to'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    name: 'Renamed Account',
    locale: 'de_DE',
    service_period: { from: account.service_from, to: account.service_to ?? daysFromToday(365) },
  };
}

const ids = async (response: Response) =>
  ((await response.json()) as TenantList).items.map((item) => item.id);
const target200: Row = [200, 200, 200];
const scoped200: Row = [200, 200, 404];
const seenEverywhere = {
  system: target200,
  partner: target200,
  'account admin': target200,
  'account, all permissions': target200,
};

const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET tenants',
    expected: seenEverywhere,
    request: (caller) => call(harness, 'GET', `${apiPaths.tenants.list}?limit=1000`, { token: caller.token }),
    lists: async (response, target) => (await ids(response)).includes(target),
  },
  {
    name: 'GET tenants/export',
    expected: seenEverywhere,
    request: (caller) => call(harness, 'GET', apiPaths.tenants.export, { token: caller.token }),
    lists: async (response, target) => {
      const friendly = await harness.deps.db
        .selectFrom('accounts')
        .select('friendly_identifier')
        .where('id', '=', target)
        .executeTakeFirstOrThrow();
      return (await response.text()).includes(friendly.friendly_identifier);
    },
  },
  {
    name: 'GET tenants/expiring',
    expected: seenEverywhere,
    request: (caller) => call(harness, 'GET', apiPaths.tenants.expiring, { token: caller.token }),
  },
  {
    name: 'GET account/expiringAccounts',
    expected: seenEverywhere,
    request: (caller) => call(harness, 'GET', apiPaths.tenants.expiringAccounts, { token: caller.token }),
  },
  ...(
    [
      ['GET tenant/{id}', apiPaths.tenants.byId],
      ['GET account/{id}', apiPaths.tenants.accountById],
    ] as const
  ).map(
    ([name, path]): Endpoint => ({
      name,
      expected: {
        system: target200,
        partner: scoped200,
        'account admin': scoped200,
        'account, all permissions': scoped200,
      },
      request: (caller, target) => call(harness, 'GET', path(target), { token: caller.token }),
    }),
  ),
  {
    name: 'PUT tenant/{id}',
    expected: {
      system: [409, 204, 204],
      partner: [403, 204, 404],
      'account admin': [403, 403, 404],
      'account, all permissions': [403, 403, 404],
    },
    request: async (caller, target) => {
      // A linked account is the external identity product's to change (409 for anyone): this cell
      // is about who may edit an account that is the platform's own.
      await harness.deps.db
        .updateTable('accounts')
        .set({ federation_status: null })
        .where('id', '=', target)
        .execute();
      return call(harness, 'PUT', apiPaths.tenants.byId(target), {
        token: caller.token,
        body: await editOf(target),
        headers: { 'If-Match': '"1"' },
      });
    },
  },
  {
    name: 'POST tenants (own: no partner; managed: under P; foreign: under Q)',
    expected: {
      system: [201, 201, 201],
      partner: [201, 201, 403],
      'account admin': [403, 403, 403],
      'account, all permissions': [403, 403, 403],
    },
    request: (caller, _target, kind) => {
      const partner = {
        own: {},
        managed: { partner_account_id: partnerP },
        foreign: { partner_account_id: partnerQ },
      };
      return call(harness, 'POST', apiPaths.tenants.list, {
        token: caller.token,
        body: newTenantForm(partner[kind]),
      });
    },
  },
  {
    name: 'DELETE tenants',
    expected: {
      system: [409, 204, 204],
      partner: [409, 204, 404],
      'account admin': [403, 403, 404],
      'account, all permissions': [403, 403, 404],
    },
    request: (caller, target) =>
      call(harness, 'DELETE', `${apiPaths.tenants.list}?ids=${target}`, { token: caller.token }),
  },
  {
    name: 'POST tenant/{id}/unlink',
    expected: {
      system: [409, 204, 204],
      partner: [403, 204, 404],
      'account admin': [403, 403, 404],
      'account, all permissions': [403, 403, 404],
    },
    request: (caller, target) =>
      call(harness, 'POST', apiPaths.tenants.unlink(target), {
        token: caller.token,
        body: { confirmation: 'UNLINK' },
      }),
  },
  ...(['deactivate', 'activate'] as const).map(
    (action): Endpoint => ({
      name: `POST tenant/{id}/${action}`,
      expected: {
        system: [409, 204, 204],
        partner: [403, 204, 404],
        'account admin': [403, 403, 404],
        'account, all permissions': [403, 403, 404],
      },
      request: async (caller, target, kind) => {
        // Each cell changes the status for real; the callers' own accounts stay active, or the
        // callers would lose their permissions for the cells after.
        if (kind !== 'own') {
          await harness.deps.db
            .updateTable('accounts')
            .set({ active: action !== 'activate' })
            .where('id', '=', target)
            .execute();
        }
        return call(harness, 'POST', apiPaths.tenants[action](target), {
          token: caller.token,
          headers: { 'If-Match': '"1"' },
        });
      },
    }),
  ),
  {
    name: 'PUT /account/api/v1/tenants/{id}/federation',
    expected: {
      system: [409, 204, 204],
      partner: [403, 403, 403],
      'account admin': [403, 403, 403],
      'account, all permissions': [403, 403, 403],
    },
    request: (caller, target) =>
      call(harness, 'PUT', apiPaths.tenants.federation(target), {
        token: caller.token,
        body: {
          provider: 'OneLogin',
          federated_account_id: 'ol-1',
          federated_account_name: 'Linked Account',
          details_url: 'https://identity.example.com/accounts/ol-1',
        },
      }),
  },
  {
    name: 'GET feature-flag/features',
    expected: seenEverywhere,
    request: (caller) => call(harness, 'GET', apiPaths.featureFlags.list, { token: caller.token }),
  },
  {
    name: 'GET feature-flag/{name}',
    expected: seenEverywhere,
    request: (caller) =>
      call(harness, 'GET', apiPaths.featureFlags.byName('federated_info'), { token: caller.token }),
  },
  {
    name: 'PUT feature-flag/{name}',
    expected: {
      system: [204, 204, 204],
      partner: [403, 403, 403],
      'account admin': [403, 403, 403],
      'account, all permissions': [403, 403, 403],
    },
    request: (caller) =>
      call(harness, 'PUT', apiPaths.featureFlags.byName('federated_info'), {
        token: caller.token,
        body: { enabled: caller === callers.system },
      }),
  },
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  const cells = CALLERS.flatMap((caller) =>
    TARGETS.map((kind, index) => ({ caller, kind, status: endpoint.expected[caller][index] ?? 0 })),
  );

  it.each(cells)('$caller on $kind account → $status', async ({ caller, kind, status }) => {
    const target = await targetFor(caller, kind);
    const response = await endpoint.request(callers[caller], target, kind);
    expect(response.status).toBe(status);
    if (status >= 400) {
      const error = await errorOf(response);
      expect(error.status).toBe(status);
      if (status === 404) expect(error.message).toBe('Account not found.');
    } else if (endpoint.lists) {
      const sees = caller === 'system' || kind !== 'foreign';
      expect(await endpoint.lists(response, target)).toBe(sees);
    }
  });

  it('asks for a token', async () => {
    const response = await endpoint.request(
      { ...callers.system, token: '' },
      callers.system.accountId,
      'own',
    );
    expect(response.status).toBe(401);
  });
});
