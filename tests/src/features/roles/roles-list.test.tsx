// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { RoleDetails } from '../../../../contract/schemas/users.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const API = '/account/ui-api/v1';

const ROWS: RoleDetails[] = [
  {
    id: 'role-1',
    name: 'Account administrator',
    code: 'account_administrator',
    app_code: 'account_manager',
    account_id: null,
    account_name: null,
    built_in: true,
    status: 'active',
    permissions: ['VIEW_USER', 'MANAGE_USER'],
    description: '',
    cloned_from: null,
    users_count: 4,
    created_at: '2026-01-02T09:00:00Z',
    version: 1,
    editable: false,
  },
  {
    id: 'role-7',
    name: 'Auditors',
    code: null,
    app_code: 'account_manager',
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    built_in: false,
    status: 'active',
    permissions: ['VIEW_AUDIT_LOG'],
    description: '',
    cloned_from: null,
    users_count: 2,
    created_at: '2026-03-04T10:00:00Z',
    version: 3,
    editable: true,
  },
];

function listApi(extra: Parameters<typeof mockApi>[0] = {}) {
  const asked: URLSearchParams[] = [];
  const api = mockApi({
    ...signedInHandlers(profileFixture(), BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${API}/role`]: ({ url }) => {
      asked.push(url.searchParams);
      return json({ items: ROWS, total: ROWS.length });
    },
    ...extra,
  });
  return Object.assign(asked, { calls: api.calls });
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

  it('filters by account for a system viewer, among the accounts they work in', async () => {
    const asked = listApi();
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'Auditors' });
    expect(asked[0]?.has('account_id')).toBe(false);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Account' }), 'System Account');
    await waitFor(() => expect(asked.at(-1)?.get('account_id')).toBe(ACCOUNT_ID));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Account' }), 'All');
    await waitFor(() => expect(asked.at(-1)?.has('account_id')).toBe(false));
  });

  it('offers no account filter to an account-scope viewer', async () => {
    listApi({
      ...signedInHandlers(
        profileFixture({ access_scope: 'account' }),
        BUILT_IN_ROLES.account_administrator.permissions,
      ),
    });
    renderApp('/account/access/manage-user-roles');
    await screen.findByRole('link', { name: 'Auditors' });
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();
  });

  it('offers Edit in the row menu of a custom role only, and Clone on both', async () => {
    listApi();
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Account administrator' }));
    // The menu opens after the click's frame: wait for it before saying what it lacks.
    expect(await screen.findByRole('menuitem', { name: 'Clone' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for Auditors' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit' })).toBeTruthy();
  });

  it('shows the account, the holders and the creation day, and sorts by holders', async () => {
    const asked = listApi();
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    const row = (await screen.findByRole('link', { name: 'Auditors' })).closest('tr') as HTMLElement;
    const headers = screen
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''));
    expect(headers.slice(0, 8)).toEqual([
      'Name',
      'Application',
      'Account',
      'Type',
      'Permissions',
      'Users',
      'Status',
      'Created',
    ]);
    const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent);
    expect(cells).toContain('Example Corp');
    expect(cells).toContain('2');
    expect(cells.some((text) => text?.includes('2026'))).toBe(true);
    await user.click(screen.getByRole('button', { name: /Users/ }));
    await waitFor(() => expect(asked.at(-1)?.get('sort')).toBe('users:asc'));
  });

  it('offers Archive only where the server says the viewer may edit, with the row’s holders in the dialog', async () => {
    const { calls } = listApi({ [`DELETE ${API}/role/role-7`]: () => new Response(null, { status: 204 }) });
    renderApp('/account/access/manage-user-roles');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Account administrator' }));
    expect(screen.queryByRole('menuitem', { name: 'Archive' })).toBeNull();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Actions for Auditors' }));
    // Chosen by keyboard, as a click in jsdom also lands outside the dialog it opens. Each step waits
    // for the highlight to move: pressing on before it has would pass the item on a busy machine.
    const item = await screen.findByRole('menuitem', { name: 'Archive' });
    const highlighted = () => document.querySelector('[role="menuitem"][data-highlighted]');
    for (let step = 0; step < 6 && !item.hasAttribute('data-highlighted'); step += 1) {
      const before = highlighted();
      await user.keyboard('{ArrowDown}');
      await waitFor(() => expect(highlighted()).not.toBe(before));
    }
    expect(item.hasAttribute('data-highlighted')).toBe(true);
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('2 users hold this role');
    await user.click(screen.getByRole('button', { name: 'Archive role' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'DELETE')?.headers.get('If-Match')).toBe('"3"'),
    );
  });
});
