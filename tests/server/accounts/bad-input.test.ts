import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { errorOf, fieldError } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { fixedClock, insertAccount, newTenantForm, signedInUser } from './helpers.ts';

/** Malformed requests to the accounts endpoints: a 4xx naming what is wrong, never a 500. */

let harness: TestApp;
let system: Caller;
let account: string;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system' });
  account = await insertAccount(harness, { federation: { status: 'linked' } });
});
afterAll(() => harness.close());

const link = {
  provider: 'OneLogin',
  federated_account_id: 'ol-1',
  federated_account_name: 'Linked',
  details_url: 'https://identity.example.com/a',
};

describe('control characters, which the database cannot store', () => {
  it.each([
    ['GET', `${apiPaths.tenants.list}?name=a%00b`, undefined, 'name: has a value that is not allowed'],
    [
      'GET',
      `${apiPaths.tenants.export}?partnerAccountNameLike=%00`,
      undefined,
      'partnerAccountNameLike: has a value that is not allowed',
    ],
    ['GET', apiPaths.tenants.byId('a\u0000'), undefined, 'id: has a value that is not allowed'],
    ['GET', apiPaths.tenants.accountById('\u0007'), undefined, 'id: has a value that is not allowed'],
    ['DELETE', `${apiPaths.tenants.list}?ids=a,b%00`, undefined, 'ids: has a value that is not allowed'],
    [
      'POST',
      apiPaths.tenants.list,
      newTenantForm({ partner_account_id: 'p\u0000' }),
      'partner_account_id: has a value that is not allowed',
    ],
    [
      'PUT',
      apiPaths.tenants.federation('x'),
      { ...link, provider: 'One\u0000Login' },
      'provider: has a value that is not allowed',
    ],
    [
      'PUT',
      apiPaths.tenants.federation('x'),
      { ...link, federated_account_id: 'a\u0000' },
      'federated_account_id: has a value that is not allowed',
    ],
    [
      'PUT',
      apiPaths.tenants.federation('x'),
      { ...link, details_url: 'https://a.example/\u0000' },
      'details_url: has a value that is not allowed',
    ],
  ] as const)('%s %s', async (method, path, body, message) => {
    const response = await call(harness, method, path, { token: system.token, body });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual(fieldError(message));
  });
});

describe('bodies of the wrong shape', () => {
  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    true,
    {},
    { name: {} },
    { name: ['a'] },
    { service_period: 'soon' },
    { service_period: { from: 1, to: null } },
    { administrator: [] },
    { enabled: null },
    { confirmation: 5 },
    { a: { b: { c: { d: { e: {} } } } } },
  ];
  const endpoints = () =>
    [
      ['POST', apiPaths.tenants.list],
      ['PUT', apiPaths.tenants.byId(account)],
      ['POST', apiPaths.tenants.unlink(account)],
      ['PUT', apiPaths.tenants.federation(account)],
      ['PUT', apiPaths.featureFlags.byName('partner_scope')],
    ] as const;

  it('answers 400 naming the field for every one, on every endpoint that takes a body', async () => {
    for (const [method, path] of endpoints()) {
      for (const body of bodies) {
        const response = await call(harness, method, path, { token: system.token, body });
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
        expect((await errorOf(response)).message).toMatch(/^[\w.[\]]+: |^request body /);
      }
    }
  });

  it('answers 400 for a body that is not JSON at all', async () => {
    for (const [method, path] of endpoints()) {
      const response = await harness.app.request(path, {
        method,
        headers: { Authorization: `Bearer ${system.token}`, 'Content-Type': 'application/json' },
        body: '{"name": ',
      });
      expect(await errorOf(response)).toEqual({
        status: 400,
        message: 'Request body is not valid JSON.',
        code: 'malformed',
      });
    }
  });
});

describe('queries of the wrong shape', () => {
  const listOnly = [apiPaths.tenants.list];
  const listAndExport = [apiPaths.tenants.list, apiPaths.tenants.export];
  it.each([
    ['sort=name:asc&sort=type:desc', listAndExport],
    ['active=true&active=false', listAndExport],
    ['endsWithinDays=-1', listAndExport],
    ['endDateFrom=2026-03-10T00:00:00Z', listAndExport],
    ['type=', listAndExport],
    ['offset=1e3', listOnly],
    ['limit=0x10', listOnly],
  ])('GET tenants?%s → 400', async (query, paths) => {
    for (const path of paths) {
      const response = await call(harness, 'GET', `${path}?${query}`, { token: system.token });
      expect(response.status, `${path}?${query}`).toBe(400);
    }
  });

  it('ignores parameters it does not know', async () => {
    const response = await call(harness, 'GET', `${apiPaths.tenants.list}?colour=blue`, {
      token: system.token,
    });
    expect(response.status).toBe(200);
  });
});
