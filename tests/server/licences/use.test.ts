import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Tenant } from '../../../contract/schemas/tenants.ts';
import { insertAccount } from '../accounts/helpers.ts';
import { insertTestCertificate, insertTestHierarchy } from '../certificates/helpers.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { allocate, type LicenceWorld, licenceWorld, readLicence, reportUse, rowOf } from './helpers.ts';

/**
 * Where use comes from (decision 022 §1): the platform counts the metered types (an account's
 * certificates issued and not expired, its device seats), the applications report the others; and
 * what an account holds makes its applications and its document signing licence in its record.
 */

let harness: TestApp;
let world: LicenceWorld;

beforeAll(async () => {
  harness = await createTestApp();
  world = await licenceWorld(harness);
});
afterAll(() => harness.close());

describe('the use of a licence type', () => {
  it("counts an account's certificates that are issued and not expired", async () => {
    const hierarchy = await insertTestHierarchy(harness);
    const accountId = world.standard;
    await allocate(harness, world.system, accountId, 'ca_manager', 'certificates', 10);
    await insertTestCertificate(harness, hierarchy, { accountId });
    await insertTestCertificate(harness, hierarchy, { accountId });
    await insertTestCertificate(harness, hierarchy, {
      accountId,
      revoked: { at: harness.deps.now(), reason: 'keyCompromise' },
    });
    await insertTestCertificate(harness, hierarchy, {
      accountId,
      issuedAt: new Date(Date.now() - 40 * 86_400_000),
      validDays: 30,
    });
    await insertTestCertificate(harness, hierarchy, { accountId: world.partner.child });
    const row = rowOf(await readLicence(harness, world.system, accountId, 'ca_manager'), 'certificates');
    expect(row).toMatchObject({ metered: true, totalAllocated: 10, used: 2, remaining: 8 });
  });

  it("counts an account's device seats", async () => {
    const accountId = world.partner.child;
    for (const kind of ['device', 'device', 'user'] as const) {
      await harness.deps.db
        .insertInto('seats')
        .values({
          id: randomUUID(),
          account_id: accountId,
          kind,
          user_id: null,
          name: `Seat ${kind}`,
          email: 'seat@example.com',
          created_at: harness.deps.now(),
        })
        .execute();
    }
    const row = rowOf(await readLicence(harness, world.system, accountId, 'device_trust_manager'), 'devices');
    // Past the total: nothing remains, and the use beyond it is over-use, not a negative remainder.
    expect(row).toMatchObject({ metered: true, used: 2, remaining: 0, overUse: 2 });
  });

  it('takes the use of the other types from their application, and answers it per type', async () => {
    const { system, standard } = world;
    await allocate(harness, system, standard, 'secure_software_manager', 'signing_keys', 7);
    await reportUse(harness, system, standard, 'secure_software_manager', 'signing_keys', 3);
    for (const path of [
      apiPaths.licence.accountUsage(standard, 'secure_software_manager'),
      apiPaths.licence.limits(standard, 'secure_software_manager'),
    ]) {
      const response = await call(harness, 'GET', path, { token: system.token });
      expect(await response.json()).toEqual({
        app_code: 'secure_software_manager',
        features: [
          { name: 'signing_keys', attributes: { limit: 7, used: 3, remaining: 4, over_use: 0 } },
          { name: 'signatures', attributes: { limit: 0, used: 0, remaining: 0, over_use: 0 } },
        ],
      });
    }
  });

  it('answers the system pools and what the system gave of them', async () => {
    const response = await call(harness, 'GET', apiPaths.licence.details, { token: world.system.token });
    const { pools } = (await response.json()) as { pools: { app_code: string; feature: string }[] };
    expect(pools).toContainEqual({
      app_code: 'ca_manager',
      feature: 'certificates',
      limit: 100,
      allocated: 10,
    });
    expect(pools).toContainEqual({
      app_code: 'device_manager',
      feature: 'iot_devices',
      limit: -1,
      allocated: 0,
    });
    // A type the licence names no limit of has its application's seats.
    expect(pools).toContainEqual({
      app_code: 'secure_software_manager',
      feature: 'signatures',
      limit: 50,
      allocated: 0,
    });
    const usage = await call(harness, 'GET', apiPaths.licence.usage('ca_manager'), {
      token: world.system.token,
    });
    expect(await usage.json()).toEqual({
      app_code: 'ca_manager',
      features: [{ name: 'certificates', attributes: { limit: 100, used: 10, remaining: 90, over_use: 0 } }],
    });
  });
});

describe("an account's record", () => {
  async function tenant(id: string): Promise<Tenant> {
    const response = await call(harness, 'GET', apiPaths.tenants.byId(id), { token: world.system.token });
    return (await response.json()) as Tenant;
  }

  it('has the applications it holds a licence of, and a document signing licence once it holds one', async () => {
    const { system } = world;
    const id = await insertAccount(harness);
    expect(await tenant(id)).toMatchObject({
      has_dsm_license: false,
      applications: [expect.objectContaining({ app_code: 'account_manager', features: [] })],
    });
    await allocate(harness, system, id, 'document_signing_manager', 'hardware_key_pair_units', 1);
    const record = await tenant(id);
    expect(record.has_dsm_license).toBe(true);
    expect(record.applications.map((application) => application.app_code)).toEqual([
      'account_manager',
      'document_signing_manager',
    ]);
    expect(record.applications[1]?.features).toEqual([
      { name: 'document_signatures', attributes: { limit: 0, used: 0, remaining: 0, over_use: 0 } },
      { name: 'hardware_key_pair_units', attributes: { limit: 1, used: 0, remaining: 1, over_use: 0 } },
    ]);
  });
});
