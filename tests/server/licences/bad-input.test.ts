import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { errorOf } from '../errors.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { allocate, type LicenceWorld, licenceWorld, readLicence } from './helpers.ts';

/**
 * Malformed input to the licence routes: each answered 400 naming the field (and its code), never 5xx,
 * with the pools as they were.
 */

let harness: TestApp;
let world: LicenceWorld;

beforeAll(async () => {
  harness = await createTestApp();
  world = await licenceWorld(harness);
  await allocate(harness, world.system, world.standard, 'ca_manager', 'certificates', 10);
});
afterAll(() => harness.close());

const row = (overrides: Record<string, unknown>) => ({
  feature: 'certificates',
  option: 'add',
  quantity: 1,
  ...overrides,
});

/** [what, body, field, code] of PUT account/{id}/license/ca_manager. */
const BODIES: [string, unknown, string, string][] = [
  ['a negative quantity', { changes: [row({ quantity: -1 })] }, 'changes.0.quantity', 'positiveNumber'],
  ['a decimal quantity', { changes: [row({ quantity: 0.5 })] }, 'changes.0.quantity', 'positiveNumber'],
  ['a quantity in letters', { changes: [row({ quantity: 'abc' })] }, 'changes.0.quantity', 'positiveNumber'],
  [
    'a quantity with a leading zero',
    { changes: [row({ quantity: '01' })] },
    'changes.0.quantity',
    'positiveNumber',
  ],
  ['a quantity as text', { changes: [row({ quantity: '1' })] }, 'changes.0.quantity', 'positiveNumber'],
  [
    'a quantity over 2³¹−1',
    { changes: [row({ quantity: 2_147_483_648 })] },
    'changes.0.quantity',
    'cannotExceed',
  ],
  ['a quantity of null', { changes: [row({ quantity: null })] }, 'changes.0.quantity', 'positiveNumber'],
  ['an unknown type', { changes: [row({ feature: 'widgets' })] }, 'changes.0.feature', 'invalidValue'],
  [
    'a type of another application',
    { changes: [row({ feature: 'devices' })] },
    'changes.0.feature',
    'invalidValue',
  ],
  ['a type named twice', { changes: [row({}), row({})] }, 'changes.1.feature', 'invalidValue'],
  [
    'no-change sent as a change',
    { changes: [row({ option: 'noChange' })] },
    'changes.0.option',
    'invalidValue',
  ],
  ['an unknown option', { changes: [row({ option: 'multiply' })] }, 'changes.0.option', 'invalidValue'],
  ['an unknown member', { changes: [row({ extra: 1 })] }, 'changes.0.extra', 'invalidValue'],
  ['no changes', { changes: [] }, 'changes', 'required'],
  ['changes that are not a list', { changes: 'add 1' }, 'changes', 'invalidType'],
];

describe('PUT account/{id}/license/{app} with malformed input', () => {
  it.each(BODIES)('refuses %s', async (_what, body, field, code) => {
    const before = await readLicence(harness, world.system, world.standard, 'ca_manager');
    const response = await call(harness, 'PUT', apiPaths.licence.byApp(world.standard, 'ca_manager'), {
      token: world.system.token,
      body,
      headers: { 'If-Match': `"${before.version}"` },
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.field).toBe(field);
    if (field !== 'changes.0.extra') expect(error.code).toBe(code);
    expect(await readLicence(harness, world.system, world.standard, 'ca_manager')).toEqual(before);
  });

  it.each([
    ['an account id that is not one', 'not-an-id', 'ca_manager', 'id'],
    ['an unknown application', '00000000-0000-4000-8000-000000000000', 'widget_manager', 'app'],
  ])('refuses %s in the path', async (_what, id, app, field) => {
    for (const method of ['GET', 'PUT'] as const) {
      const response = await call(harness, method, apiPaths.licence.byApp(id, app), {
        token: world.system.token,
        body: method === 'PUT' ? { changes: [row({})] } : undefined,
        headers: { 'If-Match': '"1"' },
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe(field);
    }
  });

  it('refuses a malformed If-Match, and JSON that does not parse', async () => {
    const path = apiPaths.licence.byApp(world.standard, 'ca_manager');
    const badTag = await call(harness, 'PUT', path, {
      token: world.system.token,
      body: { changes: [row({})] },
      headers: { 'If-Match': 'version one' },
    });
    expect(badTag.status).toBe(400);
    expect((await errorOf(badTag)).field).toBe('If-Match');
    const badJson = await harness.app.request(path, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${world.system.token}`,
        'Content-Type': 'application/json',
        'If-Match': '"1"',
      },
      body: '{"changes":[{"feature":"certificates","option":"add","quantity":01}]}',
    });
    expect(badJson.status).toBe(400);
    expect((await errorOf(badJson)).code).toBe('malformed');
  });
});

describe('the other licence routes with malformed input', () => {
  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=ten'],
    ['limit', 'limit=1000'],
    ['offset', 'offset=-1'],
    ['offset', 'offset=01'],
    ['sort', 'sort=actor:asc'],
    ['timezone', 'timezone=Mars%2FOlympus'],
  ])('refuses a history query with a bad %s (%s)', async (field, query) => {
    const response = await call(harness, 'GET', `${apiPaths.licence.history(world.standard)}?${query}`, {
      token: world.system.token,
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe(field);
  });

  it.each([
    ['a metered type', [{ feature: 'certificates', used: 1 }], 'ca_manager', 'usage.0.feature'],
    ['a type of another application', [{ feature: 'signatures', used: 1 }], 'ca_manager', 'usage.0.feature'],
    ['a negative use', [{ feature: 'signatures', used: -1 }], 'secure_software_manager', 'usage.0.used'],
    ['no use', [], 'secure_software_manager', 'usage'],
  ])('refuses a use report of %s', async (_what, usage, app, field) => {
    const response = await call(harness, 'PUT', apiPaths.licence.accountUsage(world.standard, app), {
      token: world.system.token,
      body: { usage },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe(field);
  });
});
