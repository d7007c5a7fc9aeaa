import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FEATURES, KEY_LOCKER_APPLICATION_NAME } from '../../../contract/licences.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { AccountFeature, AccountFeatureUpdate } from '../../../contract/schemas/licences.ts';
import type { Tenant } from '../../../contract/schemas/tenants.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith, createChildAccount } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** GET and PUT features/account/{id} (account administration §3–§8, K-01 … K-16; decision 022 §4). */

let harness: TestApp;
let system: Caller;
const ACCOUNT_END = '2027-06-30';

beforeAll(async () => {
  harness = await createTestApp({ now: () => new Date('2026-11-25T10:00:00Z') });
  await harness.installLicence({
    seats: { account_manager: -1, secure_software_manager: 10, ca_manager: 10 },
  });
  system = await callerWith(harness, {
    accessScope: 'system',
    permissions: ['VIEW_ACCOUNT', 'MANAGE_ACCOUNT'],
  });
});
afterAll(() => harness.close());

async function newAccount(): Promise<string> {
  const id = await harness.createAccount();
  await harness.deps.db
    .updateTable('accounts')
    .set({ service_to: ACCOUNT_END })
    .where('id', '=', id)
    .execute();
  return id;
}

interface FeatureList {
  items: AccountFeature[];
  canEdit: boolean;
  version: number;
}

async function read(accountId: string, token = system.token) {
  const response = await call(harness, 'GET', apiPaths.accountFeatures.byAccount(accountId), { token });
  expect(response.status).toBe(200);
  return { list: (await response.json()) as FeatureList, etag: response.headers.get('ETag') };
}

function put(accountId: string, body: unknown, options: { token?: string; version?: string | null } = {}) {
  const version = options.version === undefined ? '"1"' : options.version;
  return call(harness, 'PUT', apiPaths.accountFeatures.byAccount(accountId), {
    token: options.token ?? system.token,
    body,
    headers: version === null ? {} : { 'If-Match': version },
  });
}

const enabledOf = (list: FeatureList, id: string) =>
  list.items.find((item) => item.featureId === id)?.enabled;

function auditEvents(accountId: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .selectAll()
    .where('resource_id', '=', accountId)
    .where('resource_type', '=', 'ACCOUNT')
    .orderBy('seq')
    .execute();
}

describe('reading', () => {
  it('answers every catalogue feature with its default, whether the caller may change them, and the version', async () => {
    const accountId = await newAccount();
    const { list, etag } = await read(accountId);
    expect(etag).toBe('"1"');
    expect(list.canEdit).toBe(true);
    expect(list.version).toBe(1);
    expect(list.items).toEqual(
      ACCOUNT_FEATURES.map((feature) => ({
        featureId: feature.id,
        appCode: feature.app,
        enabled: feature.defaultFeature,
        defaultFeature: feature.defaultFeature,
        displayOrder: feature.displayOrder,
        endDate: null,
      })),
    );
  });

  it('answers 404 for an account that does not exist and 400 for a malformed id', async () => {
    const missing = await call(harness, 'GET', apiPaths.accountFeatures.byAccount('no-such-account'), {
      token: system.token,
    });
    expect(missing.status).toBe(404);
    const malformed = await call(harness, 'GET', apiPaths.accountFeatures.byAccount('x'.repeat(65)), {
      token: system.token,
    });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).field).toBe('id');
  });
});

describe('changing', () => {
  it('turns trial on with its end date, then key-locker on turns trial off (K-08, K-09), recorded once each', async () => {
    const accountId = await newAccount();
    const trial = await put(accountId, [
      { feature_id: 'trial_account', enabled: true, end_date: '2027-01-31' },
    ]);
    expect(trial.status).toBe(204);
    expect(trial.headers.get('ETag')).toBe('"2"');
    const keyLocker = await put(
      accountId,
      [{ feature_id: 'key_locker_account', enabled: true, end_date: null }],
      {
        version: '"2"',
      },
    );
    expect(keyLocker.status).toBe(204);
    const { list, etag } = await read(accountId);
    expect(etag).toBe('"3"');
    expect(enabledOf(list, 'key_locker_account')).toBe(true);
    expect(enabledOf(list, 'trial_account')).toBe(false);
    const events = await auditEvents(accountId);
    expect(events.map((event) => event.action)).toEqual(['UPDATE', 'UPDATE']);
    expect(events[1]?.details).toMatchObject({
      changes: {
        'key_locker_account.enabled': { from: false, to: true },
        'trial_account.enabled': { from: true, to: false },
      },
    });
  });

  it('writes nothing and records nothing for a list that changes nothing', async () => {
    const accountId = await newAccount();
    const response = await put(accountId, [{ feature_id: 'public_issuance', enabled: true, end_date: null }]);
    expect(response.status).toBe(204);
    expect((await read(accountId)).etag).toBe('"1"');
    expect(await auditEvents(accountId)).toEqual([]);
  });

  it('needs If-Match (428) and refuses an older version (412) with the features as they are', async () => {
    const accountId = await newAccount();
    const body: AccountFeatureUpdate = [{ feature_id: 'em_automation', enabled: true, end_date: null }];
    expect((await put(accountId, body, { version: null })).status).toBe(428);
    expect((await put(accountId, body)).status).toBe(204);
    const stale = await put(accountId, [{ feature_id: 'em_reporting', enabled: true, end_date: null }]);
    expect(stale.status).toBe(412);
    const answer = (await stale.json()) as { current: FeatureList };
    expect(answer.current.version).toBe(2);
    expect(enabledOf(answer.current, 'em_automation')).toBe(true);
  });
});

describe('the rules, re-checked in the server', () => {
  const cases: {
    name: string;
    body: AccountFeatureUpdate;
    before?: AccountFeatureUpdate;
    field: string;
    code: string;
  }[] = [
    {
      name: 'trial and key-locker both turned on (K-08, K-09)',
      body: [
        { feature_id: 'key_locker_account', enabled: true, end_date: null },
        { feature_id: 'trial_account', enabled: true, end_date: '2027-01-31' },
      ],
      field: '1.enabled',
      code: 'featuresExclusive',
    },
    {
      name: 'trial without an end date (K-10)',
      body: [{ feature_id: 'trial_account', enabled: true, end_date: null }],
      field: '0.end_date',
      code: 'trialNeedsEndDate',
    },
    {
      name: "an end date after the account's (K-11)",
      body: [
        { feature_id: 'public_issuance', enabled: true, end_date: null },
        { feature_id: 'trial_account', enabled: true, end_date: '2027-07-01' },
      ],
      field: '1.end_date',
      code: 'featureEndDateAfterAccount',
    },
    {
      name: 'public issuance off while key-locker is on (K-12, K-13)',
      before: [{ feature_id: 'key_locker_account', enabled: true, end_date: null }],
      body: [{ feature_id: 'public_issuance', enabled: false, end_date: null }],
      field: '0.enabled',
      code: 'publicIssuanceRequired',
    },
    {
      name: 'public issuance off in the request that turns key-locker on',
      body: [
        { feature_id: 'public_issuance', enabled: false, end_date: null },
        { feature_id: 'key_locker_account', enabled: true, end_date: null },
      ],
      field: '0.enabled',
      code: 'publicIssuanceRequired',
    },
  ];

  it.each(cases)(
    'refuses $name with 400 naming the entry, and changes nothing',
    async ({ body, before, field, code }) => {
      const accountId = await newAccount();
      let version = '"1"';
      if (before) {
        expect((await put(accountId, before)).status).toBe(204);
        version = '"2"';
      }
      const response = await put(accountId, body, { version });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ status: 400, field, code });
      expect((await read(accountId)).etag).toBe(version);
    },
  );

  it('takes public issuance off once key-locker is off again (K-13)', async () => {
    const accountId = await newAccount();
    expect(
      (await put(accountId, [{ feature_id: 'key_locker_account', enabled: true, end_date: null }])).status,
    ).toBe(204);
    const both = await put(
      accountId,
      [
        { feature_id: 'key_locker_account', enabled: false, end_date: null },
        { feature_id: 'public_issuance', enabled: false, end_date: null },
      ],
      { version: '"2"' },
    );
    expect(both.status).toBe(204);
    expect(enabledOf((await read(accountId)).list, 'public_issuance')).toBe(false);
  });

  it('lets trial end on the last day of an account, and any day of an account without an end date', async () => {
    const accountId = await newAccount();
    const lastDay = await put(accountId, [
      { feature_id: 'trial_account', enabled: true, end_date: ACCOUNT_END },
    ]);
    expect(lastDay.status).toBe(204);
    const endless = await harness.createAccount();
    const far = await put(endless, [{ feature_id: 'trial_account', enabled: true, end_date: '2099-12-31' }]);
    expect(far.status).toBe(204);
  });
});

describe('bad input answers 400 naming the field, never 5xx', () => {
  const cases: { name: string; body: unknown; field: string; code: string }[] = [
    {
      name: 'an unknown feature',
      body: [{ feature_id: 'teleport', enabled: true, end_date: null }],
      field: '0.feature_id',
      code: 'invalidValue',
    },
    {
      name: 'a day that does not exist',
      body: [{ feature_id: 'trial_account', enabled: true, end_date: '2027-02-30' }],
      field: '0.end_date',
      code: 'invalidDate',
    },
    {
      name: 'a date in another form',
      body: [{ feature_id: 'trial_account', enabled: true, end_date: '31/01/2027' }],
      field: '0.end_date',
      code: 'invalidDate',
    },
    {
      name: 'a switch that is not a boolean',
      body: [{ feature_id: 'public_issuance', enabled: 'yes', end_date: null }],
      field: '0.enabled',
      code: 'invalidType',
    },
    {
      name: 'an unknown member',
      body: [{ feature_id: 'public_issuance', enabled: true, end_date: null, roles: true }],
      field: '0.roles',
      code: 'invalidValue',
    },
    { name: 'an empty list', body: [], field: '', code: 'required' },
    {
      name: 'an object instead of a list',
      body: { feature_id: 'public_issuance' },
      field: '',
      code: 'invalidType',
    },
    {
      name: 'a feature listed twice',
      body: [
        { feature_id: 'public_issuance', enabled: true, end_date: null },
        { feature_id: 'public_issuance', enabled: false, end_date: null },
      ],
      field: '1.feature_id',
      code: 'invalidValue',
    },
  ];

  it.each(cases)('$name', async ({ body, field, code }) => {
    const accountId = await newAccount();
    const response = await put(accountId, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(code);
    if (field) expect(error.field).toBe(field);
  });
});

describe('who may read and change features', () => {
  const body: AccountFeatureUpdate = [{ feature_id: 'em_reporting', enabled: true, end_date: null }];

  it('lets a partner change the accounts under it, not its own primary account (K-15)', async () => {
    const partnerAccount = await newAccount();
    await harness.deps.db
      .updateTable('accounts')
      .set({ type: 'partner' })
      .where('id', '=', partnerAccount)
      .execute();
    const partner = await callerWith(harness, {
      accessScope: 'partner',
      accountId: partnerAccount,
      permissions: ['MANAGE_ACCOUNT'],
    });
    const child = await createChildAccount(harness, partnerAccount);
    expect((await read(child, partner.token)).list.canEdit).toBe(true);
    expect((await put(child, body, { token: partner.token })).status).toBe(204);

    expect((await read(partnerAccount, partner.token)).list.canEdit).toBe(false);
    const own = await put(partnerAccount, body, { token: partner.token });
    expect(own.status).toBe(403);
    expect((await errorOf(own)).code).toBe('ownAccount');

    const elsewhere = await newAccount();
    expect((await put(elsewhere, body, { token: partner.token })).status).toBe(404);
    const unseen = await call(harness, 'GET', apiPaths.accountFeatures.byAccount(elsewhere), {
      token: partner.token,
    });
    expect(unseen.status).toBe(404);
  });

  it('lets account scope read its features but change none', async () => {
    const user = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ACCOUNT'] });
    expect((await read(user.accountId, user.token)).list.canEdit).toBe(false);
    expect((await put(user.accountId, body, { token: user.token })).status).toBe(403);
  });

  it('reads with view account, changes with manage account only, and answers 403 without either', async () => {
    const accountId = await newAccount();
    const viewer = await callerWith(harness, { accessScope: 'system', permissions: ['VIEW_ACCOUNT'] });
    expect((await read(accountId, viewer.token)).list.canEdit).toBe(false);
    expect((await put(accountId, body, { token: viewer.token })).status).toBe(403);
    const nobody = await callerWith(harness, { accessScope: 'system', permissions: [] });
    const refused = await call(harness, 'GET', apiPaths.accountFeatures.byAccount(accountId), {
      token: nobody.token,
    });
    expect(refused.status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const accountId = await newAccount();
    expect((await call(harness, 'GET', apiPaths.accountFeatures.byAccount(accountId))).status).toBe(401);
  });
});

describe('what the features do', () => {
  it("names a key-locker account's Software Trust Manager KeyLocker in its record", async () => {
    const accountId = await newAccount();
    const nameOf = async () => {
      const response = await call(harness, 'GET', apiPaths.tenants.byId(accountId), { token: system.token });
      const tenant = (await response.json()) as Tenant;
      return tenant.applications.find((app) => app.app_code === 'secure_software_manager')?.name;
    };
    expect(await nameOf()).not.toBe(KEY_LOCKER_APPLICATION_NAME);
    const keyLocker = await put(accountId, [
      { feature_id: 'key_locker_account', enabled: true, end_date: null },
    ]);
    expect(keyLocker.status).toBe(204);
    expect(await nameOf()).toBe(KEY_LOCKER_APPLICATION_NAME);
  });
});
