import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { LoginCustomization } from '../../../contract/schemas/identity.ts';
import { fieldError } from '../errors.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { send, sendJson, signIn } from './requests.ts';

const customization: LoginCustomization = {
  logo: 'data:image/png;base64,iVBORw0KGgo=',
  urls: {
    termsOfUse: 'https://example.com/terms',
    privacyPolicy: 'https://example.com/privacy',
    legalRepository: null,
    webtrustAudit: null,
    support: 'https://example.com/support',
    contactUs: null,
  },
  copyright: '© Example Ltd',
};

describe('sign-in page customization', () => {
  let harness: TestApp;
  let systemAdministrator: string;
  beforeAll(async () => {
    harness = await createTestApp();
    systemAdministrator = (await signIn(harness, await harness.createUser({ accessScope: 'system' })))
      .accessToken;
  });
  afterAll(() => harness.close());

  const put = (body: unknown, token?: string) =>
    sendJson(harness, 'PUT', apiPaths.identity.loginCustomization, body, { token });

  it('shows nothing configured to anyone before it is set', async () => {
    const response = await send(harness, 'GET', apiPaths.identity.loginCustomization);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      logo: null,
      urls: {
        termsOfUse: null,
        privacyPolicy: null,
        legalRepository: null,
        webtrustAudit: null,
        support: null,
        contactUs: null,
      },
      copyright: null,
    });
  });

  it('asks an anonymous caller to sign in before changing it', async () => {
    expect((await put(customization)).status).toBe(401);
  });

  it('refuses account-scope administrators and system users without the settings permission', async () => {
    const accountAdministrator = await harness.createUser({ accessScope: 'account' });
    const systemAuditor = await harness.createUser({ accessScope: 'system', roles: ['read_only_auditor'] });
    for (const user of [accountAdministrator, systemAuditor]) {
      const response = await put(customization, (await signIn(harness, user)).accessToken);
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

  it('lets a system administrator change it, shows the change to everyone and audits it', async () => {
    const response = await put(customization, systemAdministrator);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(customization);
    expect(await (await send(harness, 'GET', apiPaths.identity.loginCustomization)).json()).toEqual(
      customization,
    );

    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'UPDATE')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    // The links and the copyright with their values; the logo, an image, only as changed.
    expect(event).toMatchObject({
      status: 'success',
      details: {
        changes: {
          logo: { withheld: true },
          'urls.termsOfUse': { from: null, to: 'https://example.com/terms' },
          'urls.privacyPolicy': { from: null, to: 'https://example.com/privacy' },
          'urls.support': { from: null, to: 'https://example.com/support' },
          copyright: { from: null, to: '© Example Ltd' },
        },
      },
    });
    expect(Object.keys((event.details as { changes: object }).changes)).toHaveLength(5);
  });

  it('names the field of an invalid link, and refuses links that are not web addresses', async () => {
    const notUrl = await put(
      { ...customization, urls: { ...customization.urls, support: 'nope' } },
      systemAdministrator,
    );
    expect(await notUrl.json()).toEqual({
      error: fieldError('urls.support: has a value that is not allowed'),
    });
    const script = await put(
      { ...customization, urls: { ...customization.urls, contactUs: 'javascript:alert(1)' } },
      systemAdministrator,
    );
    expect(script.status).toBe(400);
    expect(await script.json()).toEqual({
      error: fieldError('urls.contactUs: has a value that is not allowed'),
    });
  });
});
