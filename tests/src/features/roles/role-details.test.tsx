// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { RoleDetails, UserSummary } from '../../../../contract/schemas/users.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => toaster.remove());

const API = '/account/ui-api/v1';

function roleFixture(overrides: Partial<RoleDetails> = {}): RoleDetails {
  return {
    id: 'role-7',
    name: 'Auditors',
    code: null,
    app_code: 'account_manager',
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    built_in: false,
    status: 'active',
    permissions: ['VIEW_USER', 'VIEW_AUDIT_LOG'],
    description: '',
    cloned_from: null,
    created_at: '2026-01-02T09:00:00Z',
    version: 4,
    users_count: 3,
    editable: true,
    ...overrides,
  };
}

function person(id: string, last: string): UserSummary {
  return {
    id,
    first_name: 'Grace',
    last_name: last,
    user_name: `grace-${last.toLowerCase()}`,
    email: `${last.toLowerCase()}@example.com`,
    access_scope: 'account',
    primary_account: { id: ACCOUNT_ID, name: 'Example Corp' },
    status: 'active',
    email_verified: true,
    roles: [],
    last_sign_in_at: null,
    created_at: '2026-01-02T09:00:00Z',
    version: 1,
  };
}

function detailsApi(role: RoleDetails) {
  return mockApi({
    ...signedInHandlers(profileFixture(), BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${API}/role/${role.id}`]: () => json(role),
    [`GET ${API}/role/${role.id}/users`]: () => json({ items: [person('u-1', 'Holder')], total: 1 }),
    [`GET ${API}/tenant/${ACCOUNT_ID}`]: () => json({}, 404),
    [`GET ${API}/user`]: () => json({ items: [person('u-2', 'Newcomer')], total: 1 }),
    [`PUT ${API}/role/${role.id}/users`]: () => new Response(null, { status: 204 }),
    [`DELETE ${API}/role/${role.id}`]: () => new Response(null, { status: 204 }),
    [`GET ${API}/role`]: () => json({ items: [], total: 0 }),
  });
}

describe('Role details', () => {
  it('shows a built-in role by its translated name, read-only but cloneable', async () => {
    detailsApi(
      roleFixture({
        id: 'role-1',
        name: 'Account administrator',
        code: 'account_administrator',
        built_in: true,
        account_id: null,
        editable: false,
      }),
    );
    renderApp('/account/access/manage-user-roles/role-detail/role-1');
    expect(await screen.findByRole('heading', { name: 'Account administrator', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Clone' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
  });

  it('names the account of a custom role from the role itself, without asking for the account', async () => {
    const api = detailsApi(roleFixture());
    renderApp('/account/access/manage-user-roles/role-detail/role-7');
    const account = await screen.findByText('Example Corp', { selector: 'dd' });
    expect(account.previousElementSibling?.textContent).toBe('Account');
    expect(api.calls.some((call) => call.path.startsWith(`${API}/tenant/`))).toBe(false);
  });

  it('archives after saying how many users lose the role, on the role’s version', async () => {
    const api = detailsApi(roleFixture());
    renderApp('/account/access/manage-user-roles/role-detail/role-7');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('3 users hold this role and lose its permissions at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Archive role' }));
    await waitFor(() => expect(api.calls.some((call) => call.method === 'DELETE')).toBe(true));
    const archive = api.calls.find((call) => call.method === 'DELETE');
    expect(archive?.headers.get('If-Match')).toBe('"4"');
    expect(await screen.findByText('Role archived.')).toBeTruthy();
  });

  it('assigns users found by the search and removes a holder, with the permissions-edited notice', async () => {
    const api = detailsApi(roleFixture());
    renderApp('/account/access/manage-user-roles/role-detail/role-7');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Assign users' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('searchbox', { name: 'Find users' }), 'newcomer');
    await user.click(await within(dialog).findByRole('button', { name: 'Choose Grace Newcomer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ add: ['u-2'] });
    expect(await screen.findByText('Permissions edited.')).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Remove Grace Holder' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(api.calls.filter((call) => call.method === 'PUT')[1]?.body).toEqual({ remove: ['u-1'] });
  });
});
