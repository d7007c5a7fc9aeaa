// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { Role } from '../../../../contract/schemas/users.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const API = '/account/ui-api/v1';

const ROWS: Role[] = [
  {
    id: 'role-1',
    name: 'Account administrator',
    code: 'account_administrator',
    app_code: 'account_manager',
    account_id: null,
    built_in: true,
    status: 'active',
    permissions: ['VIEW_USER', 'MANAGE_USER'],
    description: '',
    cloned_from: null,
    version: 1,
  },
  {
    id: 'role-7',
    name: 'Auditors',
    code: null,
    app_code: 'account_manager',
    account_id: ACCOUNT_ID,
    built_in: false,
    status: 'active',
    permissions: ['VIEW_AUDIT_LOG'],
    description: '',
    cloned_from: null,
    version: 3,
  },
];

function listApi() {
  const asked: URLSearchParams[] = [];
  mockApi({
    ...signedInHandlers(profileFixture(), BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${API}/role`]: ({ url }) => {
      asked.push(url.searchParams);
      return json({ items: ROWS, total: ROWS.length });
    },
  });
  return asked;
}

describe('the user roles list', () => {
  it('asks for active roles by default and sends the type filter the viewer picks', async () => {
    const asked = listApi();
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: 'Auditors' })).toBeTruthy();
    expect(asked[0]?.get('status')).toBe('active');
    expect(asked[0]?.get('sort')).toBe('name:asc');
    expect(screen.getByText('2 roles')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'custom');
    await waitFor(() => expect(asked.some((query) => query.get('type') === 'custom')).toBe(true));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'all');
    await waitFor(() => expect(asked.at(-1)?.has('status')).toBe(false));
  });

  it('offers Edit in the row menu of a custom role only, and Clone on both', async () => {
    listApi();
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Account administrator' }));
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Clone' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for Auditors' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit' })).toBeTruthy();
  });
});
