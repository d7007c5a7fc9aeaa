// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_AUTH_POLICY } from '../../../../contract/certificate-policy.ts';
import type { CertificateProfile } from '../../../../contract/schemas/certificate-profiles.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { apiError, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => toaster.remove());

const CA = '/certificate-authority/api/v1';
const PROFILES = '/account/ca/profiles';
const MANAGER = ['VIEW_PROFILE', 'MANAGE_PROFILE'];

function profile(overrides: Partial<CertificateProfile> = {}): CertificateProfile {
  return {
    id: 'profile-3',
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    name: 'Laptops',
    description: 'Device certificates',
    cert_type: 'end_entity',
    policy: CLIENT_AUTH_POLICY,
    created_at: '2026-01-02T09:00:00Z',
    updated_at: '2026-01-03T09:00:00Z',
    version: 4,
    ...overrides,
  };
}

function profilesApi(extra: Parameters<typeof mockApi>[0] = {}, permissions = MANAGER) {
  return mockApi({
    ...signedInHandlers(profileFixture({ access_scope: 'account' }), permissions),
    ...extra,
  });
}

describe('Create certificate profile', () => {
  it('sends the policy the boxes and rules make, in the viewer’s account', async () => {
    const api = profilesApi({
      [`POST ${CA}/profile`]: ({ body }) => json({ ...profile(), ...(body as object), id: 'profile-9' }, 201),
      [`GET ${CA}/profile/profile-9`]: () => json(profile({ id: 'profile-9', name: 'Servers' })),
    });
    renderApp(`${PROFILES}/create`);
    const user = userEvent.setup();

    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Servers');
    const validity = screen.getByRole('spinbutton', { name: 'Validity (days)' });
    await user.clear(validity);
    await user.type(validity, '90');
    await user.click(screen.getByRole('checkbox', { name: 'Digital signature' }));
    await user.click(screen.getByRole('checkbox', { name: 'TLS server authentication' }));
    await user.click(screen.getByRole('checkbox', { name: 'RSA 2048' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'DNS names' }), 'required');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(api.calls.some((call) => call.method === 'POST')).toBe(true));
    const post = api.calls.find((call) => call.method === 'POST' && call.path === `${CA}/profile`);
    expect(post?.body).toEqual({
      account_id: ACCOUNT_ID,
      name: 'Servers',
      description: '',
      policy: {
        ...CLIENT_AUTH_POLICY,
        subject: { ...CLIENT_AUTH_POLICY.subject, dns_names: 'required' },
        validity_days: 90,
        key_usages: ['Authentication', 'DigitalSignature'],
        extended_key_usages: ['clientAuth', 'serverAuth'],
        key_types: { rsa: [3072, 4096], ec: ['P-256', 'P-384'] },
      },
    });
    expect(await screen.findByText('Certificate profile created.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Servers', level: 1 })).toBeTruthy();
  });

  it('refuses no key type, no key usage, a validity out of range and a common name not allowed, before sending', async () => {
    const api = profilesApi();
    renderApp(`${PROFILES}/create`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Empty');
    for (const box of ['RSA 2048', 'RSA 3072', 'RSA 4096', 'EC P-256', 'EC P-384', 'Authentication']) {
      await user.click(screen.getByRole('checkbox', { name: box }));
    }
    const validity = screen.getByRole('spinbutton', { name: 'Validity (days)' });
    await user.clear(validity);
    await user.type(validity, '2000');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Common name' }), 'not_allowed');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    const keyTypes = await screen.findByRole('group', { name: 'Key types' });
    await waitFor(() => expect(keyTypes.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('group', { name: 'Key usages' }).getAttribute('aria-invalid')).toBe('true');
    expect(validity.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Every certificate needs a common name.')).toBeTruthy();
    // The first field to fix takes the focus.
    expect(document.activeElement).toBe(validity);
    expect(api.calls.some((call) => call.path === `${CA}/profile`)).toBe(false);
  });

  it('shows the server’s refusal of a taken name under the name', async () => {
    profilesApi({
      [`POST ${CA}/profile`]: () =>
        json({ error: { status: 409, message: 'Taken.', field: 'name', code: 'inUse' } }, 409),
    });
    renderApp(`${PROFILES}/create`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Laptops');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Another profile of this account has this name.')).toBeTruthy();
  });
});

describe('Edit certificate profile', () => {
  it('starts from the profile and sends the change on its version', async () => {
    const api = profilesApi({
      [`GET ${CA}/profile/profile-3`]: () => json(profile()),
      [`PUT ${CA}/profile/profile-3`]: () => new Response(null, { status: 204 }),
    });
    renderApp(`${PROFILES}/profile-3/edit`);
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect((name as HTMLInputElement).value).toBe('Laptops');
    expect((screen.getByRole('checkbox', { name: 'Authentication' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('combobox', { name: 'Common name' }) as HTMLSelectElement).value).toBe(
      'required',
    );
    await user.click(screen.getByRole('checkbox', { name: 'EC P-384' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = api.calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('If-Match')).toBe('"4"');
    expect(put?.body).toMatchObject({
      name: 'Laptops',
      description: 'Device certificates',
      policy: { key_types: { rsa: [2048, 3072, 4096], ec: ['P-256'] } },
    });
    expect(await screen.findByText('Certificate profile updated.')).toBeTruthy();
  });

  it('offers the current version after a conflict', async () => {
    profilesApi({
      [`GET ${CA}/profile/profile-3`]: () => json(profile()),
      [`PUT ${CA}/profile/profile-3`]: () => apiError(412, 'Changed.'),
    });
    renderApp(`${PROFILES}/profile-3/edit`);
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Name' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Reload the current version' })).toBeTruthy();
  });

  it('is the 403 page without manage profile', async () => {
    profilesApi({ [`GET ${CA}/profile/profile-3`]: () => json(profile()) }, ['VIEW_PROFILE']);
    renderApp(`${PROFILES}/profile-3/edit`);
    expect(await screen.findByText('403')).toBeTruthy();
  });
});

describe('Certificate profiles list', () => {
  it('lists the profiles with their key types, validity and usages, and sends the name filter', async () => {
    const api = profilesApi({
      [`GET ${CA}/profile`]: () => json({ items: [profile()], total: 1 }),
    });
    const { router } = renderApp(PROFILES);
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Laptops/ });
    expect(row.textContent).toContain('RSA 2048, RSA 3072, RSA 4096, EC P-256, EC P-384');
    expect(row.textContent).toContain('365 days');
    expect(row.textContent).toContain('Authentication');
    expect(screen.getByRole('link', { name: 'Create profile' })).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Name' }), 'lap');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ name: 'lap' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.path === `${CA}/profile`).length).toBeGreaterThan(1),
    );
  });
});
