import { apiPaths } from '../../../contract/paths.ts';
import type { AccountLicence, LicenceChange } from '../../../contract/schemas/licences.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { type Caller, call } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** Fixtures of the licences suites: the pools, the accounts drawing from them, and the calls. */

/**
 * The system pools the suites' licence grants: some types limited, one unlimited, the others from
 * the applications' seats (secure software manager 50, device trust manager 0).
 */
export const TEST_LIMITS = {
  seats: { account_manager: -1, ca_manager: 100, secure_software_manager: 50, device_trust_manager: 0 },
  limits: {
    ca_manager: { certificates: 100 },
    document_signing_manager: { document_signatures: 40, hardware_key_pair_units: 10 },
    device_manager: { iot_devices: -1 },
  },
} as const;

export interface LicenceWorld {
  system: Caller;
  /** A partner account P with its administrator, and an account under it. */
  partner: { id: string; admin: Caller; child: string };
  /** A standard account under no partner. */
  standard: string;
}

/** Installs the suites' licence and makes a system administrator, a partner with one account, and a standard account. */
export async function licenceWorld(harness: TestApp): Promise<LicenceWorld> {
  await harness.installLicence({
    seats: { ...TEST_LIMITS.seats },
    limits: JSON.parse(JSON.stringify(TEST_LIMITS.limits)),
  });
  const system = await signedInUser(harness, { accessScope: 'system' });
  const partnerId = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  const admin = await signedInUser(harness, { accessScope: 'partner', accountId: partnerId });
  const child = await insertAccount(harness, { name: 'Account under P', partnerAccountId: partnerId });
  const standard = await insertAccount(harness, { name: 'Standard S' });
  return { system, partner: { id: partnerId, admin, child }, standard };
}

export async function readLicence(
  harness: TestApp,
  caller: Caller,
  accountId: string,
  app: string,
): Promise<AccountLicence> {
  const response = await call(harness, 'GET', apiPaths.licence.byApp(accountId, app), {
    token: caller.token,
  });
  if (response.status !== 200) throw new Error(`Reading the licence answered ${response.status}.`);
  return (await response.json()) as AccountLicence;
}

/** PUT a change with the version read just before unless `version` is given (null: no If-Match). */
export async function changeLicence(
  harness: TestApp,
  caller: Caller,
  accountId: string,
  app: string,
  changes: LicenceChange['changes'] | unknown,
  version?: number | null,
): Promise<Response> {
  const current =
    version === undefined ? (await readLicence(harness, caller, accountId, app)).version : version;
  return call(harness, 'PUT', apiPaths.licence.byApp(accountId, app), {
    token: caller.token,
    body: { changes },
    headers: current === null ? {} : { 'If-Match': `"${current}"` },
  });
}

/** Gives `accountId` `quantity` of one type as system scope; fails the test unless it is given. */
export async function allocate(
  harness: TestApp,
  caller: Caller,
  accountId: string,
  app: string,
  feature: string,
  quantity: number,
): Promise<void> {
  const response = await changeLicence(harness, caller, accountId, app, [
    { feature, option: 'add', quantity },
  ]);
  if (response.status !== 200)
    throw new Error(`Allocating answered ${response.status}: ${await response.text()}`);
}

/** One row of a section by its type. */
export function rowOf(licence: AccountLicence, feature: string) {
  const row = licence.data.find((candidate) => candidate.featureId === feature);
  if (!row) throw new Error(`No row ${feature}.`);
  return row;
}

/** Reports the use of a type its application counts, as system scope; fails the test unless stored. */
export async function reportUse(
  harness: TestApp,
  caller: Caller,
  accountId: string,
  app: string,
  feature: string,
  used: number,
): Promise<void> {
  const response = await call(harness, 'PUT', apiPaths.licence.accountUsage(accountId, app), {
    token: caller.token,
    body: { usage: [{ feature, used }] },
  });
  if (response.status !== 204)
    throw new Error(`Reporting use answered ${response.status}: ${await response.text()}`);
}

/** Takes back every allocation, its versions and its history: the pools as the licence gives them. */
export async function clearAllocations(harness: TestApp): Promise<void> {
  const { db } = harness.deps;
  await db.deleteFrom('licence_history').execute();
  await db.deleteFrom('account_licences').execute();
  await db.deleteFrom('licence_allocations').execute();
}
