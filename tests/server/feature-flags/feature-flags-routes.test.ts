import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_FLAGS, FEATURE_FLAGS } from '../../../contract/feature-flags.ts';
import { apiPaths } from '../../../contract/paths.ts';
import { signedInUser } from '../accounts/helpers.ts';
import { fieldError } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** Platform feature flags: everyone signed in reads them, system administrators change them. */

let harness: TestApp;
let system: Caller;
let auditor: Caller;
let partner: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  system = await signedInUser(harness, { accessScope: 'system' });
  auditor = await signedInUser(harness, { accessScope: 'system', roles: ['read_only_auditor'] });
  partner = await signedInUser(harness, { accessScope: 'partner' });
});
afterAll(() => harness.close());

const list = async (caller: Caller) =>
  (await call(harness, 'GET', apiPaths.featureFlags.list, { token: caller.token })).json();
const setFlag = (name: string, body: unknown, caller = system) =>
  call(harness, 'PUT', apiPaths.featureFlags.byName(name), { token: caller.token, body });

function flagEvents() {
  return harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'resource_type', 'actor_id', 'details'])
    .where('resource_type', '=', 'ACCOUNT')
    .orderBy('seq')
    .execute();
}

describe('feature flags', () => {
  it('lists every flag with its default before any is changed, to any signed-in user', async () => {
    const defaults = FEATURE_FLAGS.map((name) => ({ name, enabled: DEFAULT_FEATURE_FLAGS[name] }));
    expect(await list(partner)).toEqual({ items: defaults, total: FEATURE_FLAGS.length });
    expect((await call(harness, 'GET', apiPaths.featureFlags.list)).status).toBe(401);
  });

  it('changes a flag, keeps other changes, and audits only real changes', async () => {
    expect((await setFlag('partner_accounts', { enabled: false })).status).toBe(204);
    expect((await setFlag('federated_info', { enabled: false })).status).toBe(204);
    expect((await setFlag('federated_info', { enabled: false })).status).toBe(204);

    const one = await call(harness, 'GET', apiPaths.featureFlags.byName('partner_accounts'), {
      token: partner.token,
    });
    expect(await one.json()).toEqual({ name: 'partner_accounts', enabled: false });
    expect(await list(partner)).toEqual({
      items: [
        { name: 'partner_accounts', enabled: false },
        { name: 'partner_scope', enabled: true },
        { name: 'federated_info', enabled: false },
        { name: 'roles', enabled: true },
      ],
      total: 4,
    });
    expect(await flagEvents()).toEqual([
      {
        action: 'UPDATE',
        resource_type: 'ACCOUNT',
        actor_id: system.id,
        details: { changes: { 'feature_flags.partner_accounts': { from: true, to: false } } },
      },
      {
        action: 'UPDATE',
        resource_type: 'ACCOUNT',
        actor_id: system.id,
        details: { changes: { 'feature_flags.federated_info': { from: true, to: false } } },
      },
    ]);
  });

  it('ignores flags stored by another version of the platform', async () => {
    await harness.deps.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ partner_accounts: false, retired_flag: true }) })
      .where('key', '=', 'feature_flags')
      .execute();
    const names = (await list(system)).items.map((item: { name: string }) => item.name);
    expect(names).toEqual([...FEATURE_FLAGS]);
  });

  it('lets only system scope with the system-settings permission change flags', async () => {
    for (const caller of [partner, auditor]) {
      const response = await setFlag('partner_scope', { enabled: false }, caller);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: {
          status: 403,
          message: 'You do not have permission to manage system settings.',
          code: 'forbidden',
        },
      });
    }
  });

  it.each([
    ['GET', 'galaxy', undefined, 'name: has a value that is not allowed'],
    ['PUT', 'galaxy', { enabled: true }, 'name: has a value that is not allowed'],
    ['PUT', 'partner_scope', { enabled: 'yes' }, 'enabled: has the wrong type'],
    ['PUT', 'partner_scope', {}, 'enabled: has a value that is not allowed'],
  ] as const)('%s %s %j → 400', async (method, name, body, message) => {
    const response = await call(harness, method, apiPaths.featureFlags.byName(name), {
      token: system.token,
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: fieldError(message) });
  });
});
