import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES, type PermissionName } from '../../../contract/permissions.ts';
import type { AccountLicence } from '../../../contract/schemas/licences.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { allocate, changeLicence, type LicenceWorld, licenceWorld } from './helpers.ts';

/**
 * Who may see and change which account's licences (decision 022; account administration §5, §6):
 * reach first (404 outside it), then the per-application licence permission (403), then, for a
 * change, manage account and the scope's allocation rule (403).
 */

let harness: TestApp;
let world: LicenceWorld;
let systemAccount: string;
let foreign: string;
const callers = {} as Record<
  'accountAdmin' | 'accountAll' | 'noLicence' | 'viewCm' | 'manageCmOnly' | 'partnerViewOnly',
  Caller
>;

beforeAll(async () => {
  harness = await createTestApp();
  world = await licenceWorld(harness);
  systemAccount = world.system.accountId;
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  foreign = await insertAccount(harness, { name: 'Under Q', partnerAccountId: partnerQ });
  callers.accountAdmin = await signedInUser(harness, { accessScope: 'account', accountId: world.standard });
  callers.noLicence = await callerWith(harness, {
    accessScope: 'account',
    accountId: world.standard,
    permissions: ['VIEW_ACCOUNT', 'VIEW_LICENSE'],
  });
  callers.accountAll = await callerWith(harness, {
    accessScope: 'account',
    accountId: world.standard,
    permissions: PERMISSION_NAMES,
  });
  callers.viewCm = await callerWith(harness, { accessScope: 'system', permissions: ['VIEW_CM_LICENSE'] });
  callers.manageCmOnly = await callerWith(harness, {
    accessScope: 'system',
    permissions: ['MANAGE_CM_LICENSE'] satisfies PermissionName[],
  });
  callers.partnerViewOnly = await callerWith(harness, {
    accessScope: 'partner',
    accountId: world.partner.id,
    permissions: PERMISSION_NAMES.filter((name) => name.startsWith('VIEW_')),
  });
});
afterAll(() => harness.close());

function callerOf(name: string): Caller {
  if (name === 'system') return world.system;
  if (name === 'partner') return world.partner.admin;
  return callers[name as keyof typeof callers];
}

function accountOf(name: string): string {
  return (
    {
      system: systemAccount,
      partner: world.partner.id,
      child: world.partner.child,
      standard: world.standard,
      foreign,
    } as Record<string, string>
  )[name] as string;
}

/** [caller, account, GET status, canEdit when 200, PUT status] for the Private CA licence. */
const MATRIX: [string, string, number, boolean | null, number][] = [
  ['system', 'standard', 200, true, 200],
  ['system', 'partner', 200, true, 200],
  ['system', 'child', 200, true, 200],
  ['system', 'system', 200, false, 403],
  ['partner', 'child', 200, true, 200],
  ['partner', 'partner', 200, false, 403],
  ['partner', 'standard', 404, null, 404],
  ['partner', 'foreign', 404, null, 404],
  ['partner', 'system', 404, null, 404],
  ['partnerViewOnly', 'child', 200, false, 403],
  // The built-in Account administrator reads its own account's licences (J-09), and changes none.
  ['accountAdmin', 'standard', 200, false, 403],
  ['noLicence', 'standard', 403, null, 403],
  ['accountAdmin', 'child', 404, null, 404],
  ['accountAll', 'standard', 200, false, 403],
  ['viewCm', 'standard', 200, false, 403],
  ['manageCmOnly', 'standard', 200, false, 403],
];

describe('reading and changing an account licence', () => {
  it.each(MATRIX)('%s on the %s account: GET %i', async (caller, account, get, canEdit, put) => {
    await allocate(harness, world.system, world.partner.id, 'ca_manager', 'certificates', 5);
    const id = accountOf(account);
    const response = await call(harness, 'GET', apiPaths.licence.byApp(id, 'ca_manager'), {
      token: callerOf(caller).token,
    });
    expect(response.status).toBe(get);
    if (canEdit !== null) expect(((await response.json()) as AccountLicence).canEdit).toBe(canEdit);
    const changed = await changeLicence(
      harness,
      callerOf(caller),
      id,
      'ca_manager',
      [{ feature: 'certificates', option: 'add', quantity: 1 }],
      999,
    );
    // A change the caller may make meets the stale version: 412 proves every check before it passed.
    expect(changed.status).toBe(put === 200 ? 412 : put);
  });

  it('names the permission a refused reader lacks', async () => {
    const response = await call(
      harness,
      'GET',
      apiPaths.licence.byApp(world.standard, 'document_signing_manager'),
      {
        token: callers.viewCm.token,
      },
    );
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe('You do not have permission to view dsm license.');
  });

  it('tells a partner it cannot allocate to itself', async () => {
    const response = await changeLicence(harness, world.partner.admin, world.partner.id, 'ca_manager', [
      { feature: 'certificates', option: 'add', quantity: 1 },
    ]);
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe(
      'A partner allocates licences only to the accounts under its partner account.',
    );
  });
});

describe('the licence sections of an account', () => {
  async function sections(caller: Caller, account: string) {
    return call(harness, 'GET', apiPaths.licence.ofAccount(account), { token: caller.token });
  }

  it('lists every application with licence types to a caller who sees them all, never the account management one', async () => {
    const response = await sections(world.system, world.standard);
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: AccountLicence[] };
    expect(items.map((item) => item.id)).toEqual([
      'ca_manager',
      'secure_software_manager',
      'device_manager',
      'enterprise_manager',
      'document_signing_manager',
      'discovery_automation_manager',
      'device_trust_manager',
    ]);
    // Visible where the account holds some or its parent has some to give.
    expect(Object.fromEntries(items.map((item) => [item.id, item.visible]))).toMatchObject({
      ca_manager: true,
      enterprise_manager: false,
      device_trust_manager: false,
    });
  });

  it('lists only the applications whose licence the caller may view', async () => {
    const { items } = (await (await sections(callers.viewCm, world.standard)).json()) as {
      items: AccountLicence[];
    };
    expect(items.map((item) => item.id)).toEqual(['ca_manager']);
  });

  it('answers 403 to a caller without any licence permission, 404 out of reach', async () => {
    expect((await sections(callers.noLicence, world.standard)).status).toBe(403);
    expect((await sections(callers.noLicence, foreign)).status).toBe(404);
  });
});

describe('the history, the use and the platform licence', () => {
  it('answers 404 for the history of an account out of reach and 403 without a licence permission', async () => {
    for (const path of [apiPaths.licence.history(foreign), apiPaths.licence.historyDetails(foreign)]) {
      expect((await call(harness, 'GET', path, { token: world.partner.admin.token })).status).toBe(404);
    }
    const own = apiPaths.licence.history(world.standard);
    expect((await call(harness, 'GET', own, { token: callers.noLicence.token })).status).toBe(403);
    expect((await call(harness, 'GET', own, { token: callers.accountAdmin.token })).status).toBe(200);
  });

  it('takes reported use from system scope only', async () => {
    const body = { usage: [{ feature: 'signatures', used: 1 }] };
    const path = apiPaths.licence.accountUsage(world.partner.child, 'secure_software_manager');
    expect((await call(harness, 'PUT', path, { token: world.partner.admin.token, body })).status).toBe(403);
    expect((await call(harness, 'PUT', path, { token: world.system.token, body })).status).toBe(204);
    const partner = apiPaths.licence.accountUsage(world.partner.id, 'secure_software_manager');
    expect((await call(harness, 'PUT', partner, { token: world.system.token, body })).status).toBe(409);
  });

  it('shows the installed licence and the system-wide use to system scope only', async () => {
    for (const path of [apiPaths.licence.details, apiPaths.licence.usage('ca_manager')]) {
      expect((await call(harness, 'GET', path, { token: world.system.token })).status).toBe(200);
      expect((await call(harness, 'GET', path, { token: world.partner.admin.token })).status).toBe(403);
    }
  });
});
