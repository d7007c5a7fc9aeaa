import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { errorOf, fieldError } from '../errors.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  allocate,
  changeLicence,
  clearAllocations,
  type LicenceWorld,
  licenceWorld,
  readLicence,
  reportUse,
  rowOf,
} from './helpers.ts';

/**
 * The rules of a licence change (account administration §4, §5; decision 022 §2), each item of the
 * spec a row: how the pools stand before, the change, and what the server answers. Every case starts
 * with nothing allocated, so no case draws from another's pool.
 */

let harness: TestApp;
let world: LicenceWorld;

beforeAll(async () => {
  harness = await createTestApp();
  world = await licenceWorld(harness);
});
beforeEach(() => clearAllocations(harness));
afterAll(() => harness.close());

type Setup = (world: LicenceWorld) => Promise<{ account: string; app: string }>;

/** A standard account holding `quantity` of secure software signatures (pool 50), `used` of them reported used. */
function standardHolding(quantity: number, used = 0): Setup {
  return async ({ system, standard }) => {
    if (quantity > 0)
      await allocate(harness, system, standard, 'secure_software_manager', 'signatures', quantity);
    if (used > 0) await reportUse(harness, system, standard, 'secure_software_manager', 'signatures', used);
    return { account: standard, app: 'secure_software_manager' };
  };
}

/** A standard account holding a document signing manager licence: 5 signatures and 2 key-pair units. */
const documentSigner: Setup = async ({ system, standard }) => {
  await allocate(harness, system, standard, 'document_signing_manager', 'document_signatures', 5);
  await allocate(harness, system, standard, 'document_signing_manager', 'hardware_key_pair_units', 2);
  return { account: standard, app: 'document_signing_manager' };
};

interface Case {
  item: string;
  name: string;
  setup: Setup;
  changes: { feature: string; option: string; quantity: unknown }[];
  /** 200 with these totals after, or the 400 message (`field: text`). */
  expected: { totals: Record<string, number> } | { error: string };
}

const CASES: Case[] = [
  {
    item: 'J-14',
    name: 'add is refused while the parent has nothing to give',
    setup: standardHolding(50),
    changes: [{ feature: 'signatures', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-15',
    name: 'subtract is refused when nothing remains',
    setup: standardHolding(10, 10),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-15',
    name: 'subtract is refused when more is used than allocated',
    setup: standardHolding(10, 12),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-16',
    name: 'with nothing allocated anywhere, add is refused',
    setup: async ({ standard }) => ({ account: standard, app: 'device_trust_manager' }),
    changes: [{ feature: 'devices', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-16',
    name: 'with nothing allocated anywhere, subtract is refused',
    setup: async ({ standard }) => ({ account: standard, app: 'device_trust_manager' }),
    changes: [{ feature: 'devices', option: 'subtract', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-17',
    name: 'with the pool spent and all used, add is refused',
    setup: standardHolding(50, 50),
    changes: [{ feature: 'signatures', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-17',
    name: 'with the pool spent and all used, subtract is refused',
    setup: standardHolding(50, 50),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 1 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-12',
    name: 'reset is refused to an account without a document signing manager licence',
    setup: standardHolding(10),
    changes: [{ feature: 'signatures', option: 'reset', quantity: 3 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-12',
    name: 'reset is offered to an account with a document signing manager licence',
    setup: async (world) => {
      await documentSigner(world);
      await allocate(harness, world.system, world.standard, 'secure_software_manager', 'signatures', 10);
      return { account: world.standard, app: 'secure_software_manager' };
    },
    changes: [{ feature: 'signatures', option: 'reset', quantity: 3 }],
    expected: { totals: { signing_keys: 0, signatures: 3 } },
  },
  {
    item: 'J-13',
    name: 'reset is never offered for hardware key-pair units',
    setup: documentSigner,
    changes: [{ feature: 'hardware_key_pair_units', option: 'reset', quantity: 0 }],
    expected: { error: 'changes.0.option: is not a change this licence type offers' },
  },
  {
    item: 'J-18',
    name: 'reset-all sets every type but hardware key-pair units to 0',
    setup: documentSigner,
    changes: [{ feature: 'document_signatures', option: 'reset', quantity: 0 }],
    expected: { totals: { document_signatures: 0, hardware_key_pair_units: 2 } },
  },
  {
    item: 'J-19',
    name: 'a decimal is not a quantity',
    setup: standardHolding(0),
    changes: [{ feature: 'signatures', option: 'add', quantity: 1.5 }],
    expected: { error: 'changes.0.quantity: must be a positive whole number without a leading zero' },
  },
  {
    item: 'J-19',
    name: 'letters are not a quantity',
    setup: standardHolding(0),
    changes: [{ feature: 'signatures', option: 'add', quantity: 'ten' }],
    expected: { error: 'changes.0.quantity: must be a positive whole number without a leading zero' },
  },
  {
    item: 'J-20',
    name: 'a leading zero is not a quantity',
    setup: standardHolding(0),
    changes: [{ feature: 'signatures', option: 'add', quantity: '05' }],
    expected: { error: 'changes.0.quantity: must be a positive whole number without a leading zero' },
  },
  {
    item: 'J-21',
    name: 'an add of 0 is refused',
    setup: standardHolding(0),
    changes: [{ feature: 'signatures', option: 'add', quantity: 0 }],
    expected: { error: 'changes.0.quantity: must be a positive whole number without a leading zero' },
  },
  {
    item: 'J-21',
    name: 'an add of everything available is taken',
    setup: standardHolding(20),
    changes: [{ feature: 'signatures', option: 'add', quantity: 30 }],
    expected: { totals: { signing_keys: 0, signatures: 50 } },
  },
  {
    item: 'J-21',
    name: 'an add of one more than available is refused',
    setup: standardHolding(20),
    changes: [{ feature: 'signatures', option: 'add', quantity: 31 }],
    expected: { error: 'changes.0.quantity: exceeds what may be changed' },
  },
  {
    item: 'J-21',
    name: 'an unlimited pool gives any quantity',
    setup: async ({ standard }) => ({ account: standard, app: 'device_manager' }),
    changes: [{ feature: 'iot_devices', option: 'add', quantity: 2_147_483_647 }],
    expected: { totals: { iot_devices: 2_147_483_647 } },
  },
  {
    item: 'J-21',
    name: 'an add from an unlimited pool past the largest total is refused',
    setup: async ({ system, standard }) => {
      await allocate(harness, system, standard, 'device_manager', 'iot_devices', 2_147_483_647);
      return { account: standard, app: 'device_manager' };
    },
    changes: [{ feature: 'iot_devices', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.quantity: exceeds what may be changed' },
  },
  {
    item: 'J-22',
    name: 'a subtract of more than the total is refused',
    setup: standardHolding(10),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 11 }],
    expected: { error: 'changes.0.quantity: exceeds what may be changed' },
  },
  {
    item: 'J-22',
    name: 'a subtract of the whole total is taken',
    setup: standardHolding(10),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 10 }],
    expected: { totals: { signing_keys: 0, signatures: 0 } },
  },
  {
    item: 'J-23',
    name: 'a subtract of more than is not used is refused',
    setup: standardHolding(10, 4),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 7 }],
    expected: { error: 'changes.0.quantity: exceeds what may be changed' },
  },
  {
    item: 'J-23',
    name: 'a subtract of all that is not used is taken',
    setup: standardHolding(10, 4),
    changes: [{ feature: 'signatures', option: 'subtract', quantity: 6 }],
    expected: { totals: { signing_keys: 0, signatures: 4 } },
  },
  {
    item: 'J-24',
    name: 'a reset up to what is available plus the total is taken',
    setup: documentSigner,
    changes: [{ feature: 'document_signatures', option: 'reset', quantity: 40 }],
    expected: { totals: { document_signatures: 40, hardware_key_pair_units: 2 } },
  },
  {
    item: 'J-24',
    name: 'a reset above what is available plus the total is refused',
    setup: documentSigner,
    changes: [{ feature: 'document_signatures', option: 'reset', quantity: 41 }],
    expected: { error: 'changes.0.quantity: exceeds what may be changed' },
  },
  {
    item: 'J-38',
    name: 'the account management application has no licence type to change',
    setup: async ({ standard }) => ({ account: standard, app: 'account_manager' }),
    changes: [{ feature: 'certificates', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.feature: has a value that is not allowed' },
  },
  {
    item: 'decision 022 §2',
    name: 'a type of another application is refused',
    setup: standardHolding(0),
    changes: [{ feature: 'certificates', option: 'add', quantity: 1 }],
    expected: { error: 'changes.0.feature: has a value that is not allowed' },
  },
  {
    item: 'decision 022 §5',
    name: "a partner's reset never falls below what its accounts hold",
    setup: async ({ system, partner }) => {
      await allocate(harness, system, partner.id, 'document_signing_manager', 'document_signatures', 10);
      await allocate(
        harness,
        partner.admin,
        partner.child,
        'document_signing_manager',
        'document_signatures',
        6,
      );
      return { account: partner.id, app: 'document_signing_manager' };
    },
    changes: [{ feature: 'document_signatures', option: 'reset', quantity: 5 }],
    expected: { error: 'changes.0.quantity: is less than the accounts under it already hold' },
  },
];

describe('the rules of a licence change', () => {
  it.each(CASES)('$item: $name', async ({ setup, changes, expected }) => {
    const { account, app } = await setup(world);
    const before = await readLicence(harness, world.system, account, app);
    const response = await changeLicence(harness, world.system, account, app, changes);
    const after = await readLicence(harness, world.system, account, app);
    if ('error' in expected) {
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toEqual(fieldError(expected.error));
      // The pools are as they were.
      expect(after).toEqual(before);
      return;
    }
    expect(response.status).toBe(200);
    expect(Object.fromEntries(after.data.map((row) => [row.featureId, row.totalAllocated]))).toEqual(
      expected.totals,
    );
    expect(after.version).toBe(before.version + 1);
  });
});

describe('a reset below what the account uses', () => {
  it('is refused naming the row until the caller confirms the over-use, then shows it as over-use', async () => {
    const { system, standard } = world;
    await documentSigner(world);
    await reportUse(harness, system, standard, 'document_signing_manager', 'document_signatures', 4);
    const before = await readLicence(harness, system, standard, 'document_signing_manager');
    const reset = [{ feature: 'document_signatures', option: 'reset', quantity: 3 }];
    const refused = await changeLicence(harness, system, standard, 'document_signing_manager', reset);
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toEqual(
      fieldError(
        'changes.0.quantity: is less than the account already uses; send confirm_over_use to leave it over its licence',
      ),
    );
    expect(await readLicence(harness, system, standard, 'document_signing_manager')).toEqual(before);

    const confirmed = await call(
      harness,
      'PUT',
      apiPaths.licence.byApp(standard, 'document_signing_manager'),
      {
        token: system.token,
        body: { changes: reset, confirm_over_use: true },
        headers: { 'If-Match': `"${before.version}"` },
      },
    );
    expect(confirmed.status).toBe(200);
    const after = await readLicence(harness, system, standard, 'document_signing_manager');
    expect(rowOf(after, 'document_signatures')).toMatchObject({
      totalAllocated: 3,
      used: 4,
      remaining: 0,
      overUse: 1,
    });
  });
});

describe('the numbers of a licence section', () => {
  it("shows a partner's use as what it gave its accounts, and what it has left to give them", async () => {
    const { system, partner } = world;
    await allocate(harness, system, partner.id, 'ca_manager', 'certificates', 30);
    await allocate(harness, partner.admin, partner.child, 'ca_manager', 'certificates', 12);
    const ofPartner = rowOf(await readLicence(harness, system, partner.id, 'ca_manager'), 'certificates');
    expect(ofPartner).toMatchObject({ totalAllocated: 30, used: 12, remaining: 18, licenseAllocation: 70 });
    const ofChild = rowOf(
      await readLicence(harness, partner.admin, partner.child, 'ca_manager'),
      'certificates',
    );
    expect(ofChild).toMatchObject({ totalAllocated: 12, used: 0, remaining: 12, licenseAllocation: 18 });
    // What it gave cannot be taken back from it.
    const response = await changeLicence(harness, system, partner.id, 'ca_manager', [
      { feature: 'certificates', option: 'subtract', quantity: 19 },
    ]);
    expect(await errorOf(response)).toEqual(fieldError('changes.0.quantity: exceeds what may be changed'));
  });

  it('answers -1 for what an unlimited pool can give', async () => {
    const row = rowOf(
      await readLicence(harness, world.system, world.standard, 'device_manager'),
      'iot_devices',
    );
    expect(row).toMatchObject({ licenseAllocation: -1, totalAllocated: 0, remaining: 0 });
  });

  it('answers 412 with the section as it is when the version moved', async () => {
    const { system, standard } = world;
    const read = await readLicence(harness, system, standard, 'ca_manager');
    await allocate(harness, system, standard, 'ca_manager', 'certificates', 1);
    const response = await changeLicence(
      harness,
      system,
      standard,
      'ca_manager',
      [{ feature: 'certificates', option: 'add', quantity: 1 }],
      read.version,
    );
    expect(response.status).toBe(412);
    const body = (await response.json()) as { current: { version: number } };
    expect(body.current.version).toBe(read.version + 1);
  });

  it('answers 428 without If-Match', async () => {
    const response = await changeLicence(
      harness,
      world.system,
      world.standard,
      'ca_manager',
      [{ feature: 'certificates', option: 'add', quantity: 1 }],
      null,
    );
    expect(response.status).toBe(428);
  });

  it('writes nothing for a reset to the total the type has', async () => {
    const { system, standard } = world;
    await documentSigner(world);
    const before = await readLicence(harness, system, standard, 'document_signing_manager');
    const response = await changeLicence(harness, system, standard, 'document_signing_manager', [
      { feature: 'document_signatures', option: 'reset', quantity: 5 },
    ]);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { event: unknown }).event).toEqual({ features: [] });
    expect((await readLicence(harness, system, standard, 'document_signing_manager')).version).toBe(
      before.version,
    );
  });
});
