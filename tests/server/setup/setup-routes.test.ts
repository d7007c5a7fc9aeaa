import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { SetupUserRequest } from '../../../contract/schemas/setup.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

const administrator: SetupUserRequest = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  user_name: 'ada',
  password: 'Analytical-Engine-1843',
  repeatedPassword: 'Analytical-Engine-1843',
};

function postJson(harness: TestApp, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(
    harness.app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

describe('first-time setup', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it('reports that nothing is installed yet', async () => {
    const response = await harness.app.request(apiPaths.setup.status);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ licence_installed: false, administrator_exists: false });
  });

  it('refuses to create the administrator before a licence is installed', async () => {
    const response = await postJson(harness, apiPaths.setup.user, administrator);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { status: 409, message: 'Install a license first.' } });
  });

  it('installs a licence signed by the trusted vendor', async () => {
    const text = await harness.signLicence({ licensee: 'Analytical Engines Ltd', valid_to: '2099-12-31' });
    const response = await postJson(harness, apiPaths.setup.licence, { body: text });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      status: 'VALID',
      licensee: 'Analytical Engines Ltd',
      valid_to: '2099-12-31',
    });
  });

  it('creates one administrator when two requests race', async () => {
    const responses = await Promise.all([
      postJson(harness, apiPaths.setup.user, administrator),
      postJson(harness, apiPaths.setup.user, { ...administrator, user_name: 'ada2' }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 403]);
    const users = await harness.deps.db.selectFrom('users').select(['user_name', 'access_scope']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]?.access_scope).toBe('system');
  });

  it('refuses a second setup once the administrator exists', async () => {
    const licence = await postJson(harness, apiPaths.setup.licence, { body: await harness.signLicence() });
    expect(licence.status).toBe(403);
    expect(await licence.json()).toEqual({ error: { status: 403, message: 'Setup is already complete.' } });
    const user = await postJson(harness, apiPaths.setup.user, { ...administrator, user_name: 'mallory' });
    expect(user.status).toBe(403);
  });

  it('reports setup as complete', async () => {
    const response = await harness.app.request(apiPaths.setup.status);
    expect(await response.json()).toEqual({ licence_installed: true, administrator_exists: true });
  });

  it('audits the licence and the administrator in one linked chain', async () => {
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'resource_type', 'status'])
      .orderBy('seq')
      .execute();
    expect(events).toEqual([
      { action: 'CREATE', resource_type: 'LICENSE', status: 'success' },
      { action: 'CREATE', resource_type: 'USER', status: 'success' },
    ]);
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({ ok: true, events: 2 });
  });
});
