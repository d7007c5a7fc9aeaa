// @vitest-environment jsdom
import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { API, findAdministratorsTable, queriesOf, userSummaryFixture, usersApi } from './users-support.ts';

const LIST_PATH = `${API}/user`;
const EXPORT_PATH = `${API}/user/export`;

function headers(table: HTMLElement): string[] {
  return [...table.querySelectorAll('thead th')].map(
    (header) => header.textContent?.replace(/[▲▼↕]/g, '').trim() ?? '',
  );
}

afterEach(() => {
  onlineManager.setOnline(true);
  vi.restoreAllMocks();
});

describe('administrators list', () => {
  it('asks for the first 20 by name and shows the columns a system viewer sees', async () => {
    const row = userSummaryFixture({
      first_name: 'Grace',
      last_name: 'Hopper',
      status: 'pending',
      email_verified: false,
      last_sign_in_at: null,
      roles: ['A', 'B', 'C', 'D', 'E'].map((name) => ({ id: name, name: `Role ${name}` })),
    });
    const { requests } = usersApi({ users: [row] });
    renderApp('/account/access/administrators');
    expect(await screen.findByRole('heading', { name: 'Administrators', level: 1 })).toBeTruthy();
    const table = await findAdministratorsTable();
    expect(headers(table)).toEqual([
      'Name',
      'Username',
      'E-mail',
      'Account',
      'Scope',
      'Roles',
      'Status',
      'Last sign-in',
      'Created',
      'Actions',
    ]);
    const link = within(table).getByRole('link', { name: 'Grace Hopper' });
    expect(link.getAttribute('href')).toBe(`/account/access/administrators/${row.id}`);
    const cells = within(link.closest('tr') as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toContain(
      'Role A, Role B, Role C+2and 2 more: Role D, Role E',
    );
    expect(within(table).getByText('Pending')).toBeTruthy();
    expect(within(table).getByText('E-mail not verified')).toBeTruthy();
    expect(within(table).getByText('Never')).toBeTruthy();
    expect(screen.getByText('1 administrator')).toBeTruthy();
    expect(queriesOf(requests, LIST_PATH)[0]).toEqual({ limit: '20', offset: '0', sort: 'name:asc' });
  });

  it('hides the account and scope columns and the scope filter from an account-scope viewer', async () => {
    usersApi({ profile: profileFixture({ access_scope: 'account' }) });
    renderApp('/account/access/administrators');
    const table = await findAdministratorsTable();
    expect(headers(table)).not.toContain('Account');
    expect(headers(table)).not.toContain('Scope');
    expect(screen.queryByLabelText('Scope')).toBeNull();
  });

  it('sorts and filters through the address, back to the first page', async () => {
    const { requests } = usersApi({ users: [userSummaryFixture()], total: 45 });
    const { router } = renderApp('/account/access/administrators?page=2');
    const table = await findAdministratorsTable();
    const user = userEvent.setup();
    await user.click(within(table).getByRole('button', { name: 'Last sign-in' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'last_sign_in:asc' }));
    await user.click(within(table).getByRole('button', { name: 'Last sign-in' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'last_sign_in:desc' }));
    await user.selectOptions(screen.getByLabelText('Status'), 'Disabled');
    await user.selectOptions(screen.getByLabelText('Scope'), 'Partner');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Role' }), 'Account administrator');
    await user.type(screen.getByRole('searchbox', { name: /Search/ }), 'grace');
    await waitFor(() =>
      expect(router.state.location.search).toEqual({
        sort: 'last_sign_in:desc',
        status: 'disabled',
        scope: 'partner',
        role: 'role-1',
        q: 'grace',
      }),
    );
    const queries = queriesOf(requests, LIST_PATH);
    expect(queries[0]).toMatchObject({ offset: '20' });
    await waitFor(() =>
      expect(queriesOf(requests, LIST_PATH).at(-1)).toEqual({
        limit: '20',
        offset: '0',
        sort: 'last_sign_in:desc',
        status: 'disabled',
        scope: 'partner',
        role_id: 'role-1',
        q: 'grace',
      }),
    );
    const sorted = within(await findAdministratorsTable()).getByRole('columnheader', {
      name: /Last sign-in/,
    });
    expect(sorted.getAttribute('aria-sort')).toBe('descending');
  });

  it('opens with the filters an address names, and says so when nothing matches', async () => {
    const { requests } = usersApi({ users: [] });
    const { router } = renderApp('/account/access/administrators?status=disabled&sort=email:desc&q=nobody');
    expect(await screen.findByText('No administrators match these filters.')).toBeTruthy();
    expect(queriesOf(requests, LIST_PATH)[0]).toEqual({
      limit: '20',
      offset: '0',
      sort: 'email:desc',
      status: 'disabled',
      q: 'nobody',
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'email:desc' }));
  });

  it('shows a failure in our words with a retry', async () => {
    let fail = true;
    usersApi({
      extra: {
        [`GET ${LIST_PATH}`]: () =>
          fail ? apiError(500, 'boom') : json({ items: [userSummaryFixture()], total: 1 }),
      },
    });
    renderApp('/account/access/administrators');
    expect(await screen.findByText('Something went wrong on the server. Try again later.')).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await findAdministratorsTable()).toBeTruthy();
  });

  it('says offline that the list was never loaded, and that export needs a connection', async () => {
    usersApi({ extra: { [`GET ${LIST_PATH}`]: () => Promise.reject(new TypeError('Failed to fetch')) } });
    renderApp('/account/access/administrators');
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    act(() => onlineManager.setOnline(false));
    expect(
      await screen.findByText(
        'This was not loaded before the connection was lost. It shows once you are back online.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: /Export CSV/ }).getAttribute('aria-disabled')).toBe('true');
  });

  it('keeps a loaded list readable offline, saying how old it is', async () => {
    usersApi();
    renderApp('/account/access/administrators');
    await findAdministratorsTable();
    act(() => onlineManager.setOnline(false));
    expect(await screen.findByText(/Offline — data as of/)).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Administrators' })).toBeTruthy();
  });

  it('shows the 403 page to a viewer without any user permission', async () => {
    usersApi({ permissions: ['VIEW_ACCOUNT'] });
    renderApp('/account/access/administrators');
    expect(await screen.findByText('403')).toBeTruthy();
  });
});

describe('administrators export', () => {
  it('downloads the list as filtered and sorted, every page', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:users'), revokeObjectURL: vi.fn() });
    const { requests } = usersApi({
      extra: {
        [`GET ${EXPORT_PATH}`]: () =>
          new Response('user_name\ngrace\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
      },
    });
    renderApp('/account/access/administrators?status=active&sort=created:desc');
    await findAdministratorsTable();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved[0]).toMatch(/^administrators-\d{4}-\d{2}-\d{2}\.csv$/));
    expect(queriesOf(requests, EXPORT_PATH)).toEqual([{ sort: 'created:desc', status: 'active' }]);
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });
});
