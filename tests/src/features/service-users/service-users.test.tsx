// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { ServiceUser, ServiceUserSummary } from '../../../../contract/schemas/service-users.ts';
import type { RoleList } from '../../../../contract/schemas/users.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { today } from '../../../../src/lib/dates.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => toaster.remove());

const API = '/account/ui-api/v1';
const SERVICE_USER_ID = '6c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const TOKEN_VALUE = `tct_${'Q1w2E3r4'.repeat(5)}abc`;

function summary(overrides: Partial<ServiceUserSummary> = {}): ServiceUserSummary {
  return {
    id: SERVICE_USER_ID,
    name: 'Nightly export',
    description: 'Copies accounts to the warehouse',
    email: 'data-team@example.com',
    end_date: '2026-12-31',
    status: 'enabled',
    primary_account: { id: ACCOUNT_ID, name: 'Example Corp' },
    roles: [{ id: 'role-1', name: 'Read-only auditor', code: 'read_only_auditor' }],
    last_used_at: null,
    created_at: '2026-01-02T09:00:00Z',
    version: 4,
    ...overrides,
  };
}

function record(overrides: Partial<ServiceUser> = {}): ServiceUser {
  return {
    ...summary(),
    enabled: true,
    access_scope: 'account',
    accounts: [{ id: ACCOUNT_ID, name: 'Example Corp' }],
    roles: [
      {
        id: 'role-1',
        name: 'Read-only auditor',
        code: 'read_only_auditor',
        app_code: 'account_manager',
        built_in: true,
      },
    ],
    permissions: ['VIEW_USER'],
    created_by: { id: 'admin-1', name: 'ada' },
    ...overrides,
  };
}

const ROLES: RoleList = {
  items: [
    {
      id: 'role-1',
      name: 'Read-only auditor',
      code: 'read_only_auditor',
      app_code: 'account_manager',
      account_id: null,
      account_name: null,
      built_in: true,
      status: 'active',
      permissions: [],
      description: '',
      cloned_from: null,
      users_count: 0,
      editable: false,
      created_at: '2026-01-01T00:00:00.000Z',
      version: 1,
    },
    {
      id: 'role-2',
      name: 'Exporters',
      code: null,
      app_code: 'account_manager',
      account_id: ACCOUNT_ID,
      account_name: 'Example Corp',
      built_in: false,
      status: 'active',
      permissions: [],
      description: '',
      cloned_from: null,
      users_count: 0,
      editable: true,
      created_at: '2026-01-01T00:00:00.000Z',
      version: 1,
    },
  ],
  total: 2,
};

function serviceUsersApi(extra: Parameters<typeof mockApi>[0] = {}) {
  const profile = profileFixture({ access_scope: 'account', primary_account_id: ACCOUNT_ID });
  return mockApi({
    ...signedInHandlers(profile, BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${API}/service-user`]: () => json({ items: [summary()], total: 1 }),
    [`GET ${API}/role`]: () => json(ROLES),
    [`GET ${API}/service-user/${SERVICE_USER_ID}`]: () => json(record()),
    [`GET ${API}/service-user/${SERVICE_USER_ID}/api-tokens`]: () => json({ items: [], total: 0 }),
    [`POST ${API}/service-user`]: () =>
      json(
        {
          service_user: record(),
          api_token: {
            id: 'token-1',
            user_id: SERVICE_USER_ID,
            name: 'Initial token',
            hint: 'xabc',
            created_at: '2026-01-02T09:00:00Z',
            end_date: null,
            last_used_at: null,
            revoked_at: null,
            status: 'active',
            version: 1,
            value: TOKEN_VALUE,
          },
        },
        201,
      ),
    [`PUT ${API}/service-user/${SERVICE_USER_ID}/enable`]: () => new Response(null, { status: 204 }),
    [`PUT ${API}/service-user/${SERVICE_USER_ID}/access`]: () => new Response(null, { status: 204 }),
    ...extra,
  });
}

describe('Access › Service users', () => {
  it('lists the service users with their columns, the first 20 by name', async () => {
    const { calls } = serviceUsersApi();
    renderApp('/account/access/service-user');
    const table = await screen.findByRole('table', { name: 'Service users' });
    const headers = [...table.querySelectorAll('thead th')].map((header) =>
      header.textContent?.replace(/[▲▼↕]/g, '').trim(),
    );
    expect(headers).toEqual([
      'Name',
      'Description',
      'Account',
      'Roles',
      'Status',
      'End date',
      'Last used',
      'Created',
      'Actions',
    ]);
    const link = within(table).getByRole('link', { name: 'Nightly export' });
    expect(link.getAttribute('href')).toBe(`/account/access/service-user/${SERVICE_USER_ID}`);
    expect(within(table).getByText('Enabled')).toBeTruthy();
    const list = calls.find((call) => call.path === `${API}/service-user`);
    expect(list).toBeDefined();
  });

  it('shows built-in role names translated by their code, custom ones as named', async () => {
    serviceUsersApi({
      [`GET ${API}/service-user`]: () =>
        json({
          items: [
            summary({
              roles: [
                { id: 'role-1', name: 'Stored auditor name', code: 'read_only_auditor' },
                { id: 'role-2', name: 'Exporters', code: null },
              ],
            }),
          ],
          total: 1,
        }),
    });
    renderApp('/account/access/service-user');
    const table = await screen.findByRole('table', { name: 'Service users' });
    expect(within(table).getByText('Read-only auditor, Exporters')).toBeTruthy();
    expect(within(table).queryByText(/Stored auditor name/)).toBeNull();
  });

  it('deletes one from its row after typing DELETE, on the version shown', async () => {
    let ifMatch: string | null = null;
    const { calls } = serviceUsersApi({
      [`DELETE ${API}/service-user/${SERVICE_USER_ID}`]: () => new Response(null, { status: 204 }),
    });
    renderApp('/account/access/service-user');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Service users' });
    await user.click(within(table).getByRole('button', { name: 'Delete Nightly export' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Nightly export?' });
    expect(within(dialog).getByText(/The certificates it owns are revoked\./)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm);
    expect(await screen.findByText('Service user deleted.')).toBeTruthy();
    const removal = calls.find((call) => call.method === 'DELETE');
    ifMatch = removal?.headers.get('If-Match') ?? null;
    expect(removal?.path).toBe(`${API}/service-user/${SERVICE_USER_ID}`);
    expect(ifMatch).toBe('"4"');
  });

  it('creates one with the chosen roles and shows its token once', async () => {
    const { calls } = serviceUsersApi();
    renderApp('/account/access/service-user/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Nightly export');
    await user.type(screen.getByLabelText(/^Responsible person’s e-mail/), 'data-team@example.com');
    await user.click(await screen.findByRole('checkbox', { name: /Read-only auditor/ }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Copy this token now. It will not be shown again.')).toBeTruthy();
    expect((screen.getByLabelText('API token Initial token') as HTMLInputElement).value).toBe(TOKEN_VALUE);
    const post = calls.find((call) => call.method === 'POST' && call.path === `${API}/service-user`);
    expect(post?.body).toEqual({
      name: 'Nightly export',
      description: '',
      email: 'data-team@example.com',
      end_date: null,
      primary_account_id: ACCOUNT_ID,
      account_ids: [],
      role_ids: ['role-1'],
      token_name: 'Initial token',
    });
  });

  it('disables one after confirmation, on the version shown', async () => {
    const { calls } = serviceUsersApi();
    renderApp(`/account/access/service-user/${SERVICE_USER_ID}`);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Nightly export', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disable Nightly export?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'PUT' && call.path.endsWith('/enable'))).toBe(true),
    );
    const put = calls.find((call) => call.method === 'PUT' && call.path.endsWith('/enable'));
    expect(put?.body).toEqual({ enabled: false });
    expect(put?.headers.get('If-Match')).toBe('"4"');
    expect(await screen.findByText('Service user disabled.')).toBeTruthy();
  });

  it('proposes a new token the service user’s own end date when that comes before 90 days', async () => {
    const ends = today('UTC').add({ days: 30 }).toString();
    serviceUsersApi({
      [`GET ${API}/service-user/${SERVICE_USER_ID}`]: () => json(record({ end_date: ends })),
    });
    renderApp(`/account/access/service-user/${SERVICE_USER_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    expect((within(dialog).getByLabelText(/End date/) as HTMLInputElement).value).toBe(ends);
  });

  it('replaces its roles on the version shown, keeping the ones it holds', async () => {
    const { calls } = serviceUsersApi();
    renderApp(`/account/access/service-user/${SERVICE_USER_ID}/role-service-user-edit`);
    const user = userEvent.setup();
    const roles = await screen.findByRole('region', { name: 'Roles' });
    const held = await within(roles).findByRole('checkbox', { name: /Read-only auditor/ });
    expect((held as HTMLInputElement).checked).toBe(true);
    await user.click(within(roles).getByRole('checkbox', { name: /Exporters/ }));
    await user.click(within(roles).getByRole('button', { name: 'Save roles' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'PUT' && call.path.endsWith('/access'))).toBe(true),
    );
    const put = calls.find((call) => call.method === 'PUT' && call.path.endsWith('/access'));
    expect(put?.body).toEqual({ account_ids: [], role_ids: ['role-1', 'role-2'] });
    expect(put?.headers.get('If-Match')).toBe('"4"');
  });
});
