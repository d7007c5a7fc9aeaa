import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorBody } from '../../../contract/schemas/common.ts';
import type { SetupUserRequest } from '../../../contract/schemas/setup.ts';
import { verifyAuditChain } from '../../../server/audit/verify.ts';
import { fieldError } from '../errors.ts';
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
    expect(await response.json()).toEqual({
      error: { status: 409, message: 'Install a license first.', code: 'conflict' },
    });
  });

  it.each([
    [
      'an unreadable text',
      async () => 'not a licence',
      'The license text is not readable',
      'licenceUnreadable',
    ],
    [
      'an expired licence',
      async () => harness.signLicence({ valid_from: '2020-01-01', valid_to: '2020-12-31' }),
      'The license expired on 2020-12-31.',
      'licenceExpired',
    ],
    [
      'a licence that has not started',
      async () => harness.signLicence({ valid_from: '2099-01-01', valid_to: '2099-12-31' }),
      'The license is not valid before 2099-01-01.',
      'licenceNotYetValid',
    ],
    [
      'a licence with an altered payload',
      async () => {
        const lines = (await harness.signLicence()).split('\n');
        const middle = Math.floor(lines.length / 2);
        lines[middle] = [...(lines[middle] ?? '')].reverse().join('');
        return lines.join('\n');
      },
      'The license',
      // A reversed line of the armoured text no longer decodes, so it is refused before the signature check.
      'licenceUnreadable',
    ],
  ])('refuses %s with a 400 saying why', async (_name, licence, message, code) => {
    const response = await postJson(harness, apiPaths.setup.licence, { body: await licence() });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ApiErrorBody;
    expect(body.error).toMatchObject({ status: 400, field: 'body', code });
    expect(body.error.message).toContain(message);
  });

  it('refuses a licence signed by a vendor it does not trust, naming the key', async () => {
    const foreign = await createTestApp();
    try {
      const response = await postJson(harness, apiPaths.setup.licence, { body: await foreign.signLicence() });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as ApiErrorBody;
      expect(error.code).toBe('licenceUntrustedKey');
      expect(error.message).toMatch(/does not trust \(fingerprint [0-9a-f]{64}\)/);
    } finally {
      await foreign.close();
    }
  });

  it('requires the licence text', async () => {
    const response = await postJson(harness, apiPaths.setup.licence, { body: '  ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: fieldError('body: is required') });
  });

  it.each([
    [{ first_name: '' }, 'first_name: is required'],
    [{ last_name: '' }, 'last_name: is required'],
    [{ first_name: 'Ada<script>' }, 'first_name: contains characters that are not allowed'],
    [{ email: '' }, 'email: is required'],
    [{ email: 'ada@example' }, 'email: invalid email'],
    [{ email: 'ada@example.c' }, 'email: invalid email'],
    [{ user_name: '' }, 'user_name: user name is required'],
    [{ user_name: 'ada lovelace' }, 'user_name: invalid user name'],
    [{ password: '', repeatedPassword: '' }, 'password: is required'],
    [{ password: 'Short-1', repeatedPassword: 'Short-1' }, 'password: must be at least 12 characters'],
    [{ password: `Aa1!${'x'.repeat(252)}` }, 'password: must be at most 255 characters'],
    [{ password: 'analytical-engine-1843' }, 'password: enter valid password'],
    [{ password: 'ANALYTICAL-ENGINE-1843' }, 'password: enter valid password'],
    [{ password: 'Analytical-Engine-Ada' }, 'password: enter valid password'],
    [{ password: 'AnalyticalEngine1843' }, 'password: enter valid password'],
    [{ repeatedPassword: '' }, 'repeatedPassword: is required'],
    [{ repeatedPassword: 'Short-1' }, 'repeatedPassword: must be at least 12 characters'],
    [{ repeatedPassword: 'Analytical-Engine-1844' }, 'repeatedPassword: does not match the password'],
    [{ first_name: 42 }, 'first_name: has the wrong type'],
  ])('refuses the administrator form %j with "%s"', async (change, message) => {
    const response = await postJson(harness, apiPaths.setup.user, { ...administrator, ...change });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: fieldError(message) });
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
    expect(await licence.json()).toEqual({
      error: { status: 403, message: 'Setup is already complete.', code: 'forbidden' },
    });
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
    expect(events.filter((event) => event.status === 'failure')).toHaveLength(5);
    expect(events.filter((event) => event.status === 'success')).toEqual([
      { action: 'CREATE', resource_type: 'LICENSE', status: 'success' },
      { action: 'CREATE', resource_type: 'USER', status: 'success' },
    ]);
    expect(await verifyAuditChain(harness.deps.db)).toMatchObject({ ok: true, events: 7 });
  });
});
