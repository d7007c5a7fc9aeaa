// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../fixtures.ts';
import { renderApp } from '../../support.tsx';
import {
  findAccountsTable,
  listQueries,
  PARTNER_ADMINISTRATOR,
  partnerProfile,
  queriesOf,
  signedIn,
  tenantFixture,
} from './accounts-list-support.ts';

const OTHER_USER_ID = 'c0a80101-0000-4000-8000-000000000002';

/** The query of the accounts table's latest request, as name-value pairs. */
function latestListQuery(requests: readonly URL[]): Record<string, string> {
  return Object.fromEntries(listQueries(requests).at(-1)?.entries() ?? []);
}

async function filtersOf() {
  return screen.findByRole('search', { name: 'Filter accounts' });
}

describe('accounts list filters', () => {
  it('applies a name filter once typing pauses, from the first page', async () => {
    const { requests } = signedIn({ tenants: Array.from({ length: 10 }, () => tenantFixture()), total: 25 });
    const { router } = renderApp('/account/accounts?page=2');
    await findAccountsTable();
    const before = listQueries(requests).length;
    const user = userEvent.setup();
    await user.type(within(await filtersOf()).getByLabelText('Name'), 'acme');
    await waitFor(() => expect(latestListQuery(requests).name).toBe('acme'));
    expect(latestListQuery(requests)).toMatchObject({ offset: '0', sort: 'name:asc', active: 'true' });
    const asked = listQueries(requests).slice(before);
    // Debounced: never a request per key; reset: never the second page of the new result.
    expect(asked.map((query) => query.get('name')).filter((name) => name !== 'acme')).toEqual([]);
    expect(asked.map((query) => query.get('offset'))).not.toContain('10');
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('sends status, friendly identifier, type and partner filters as the API names them', async () => {
    const { requests } = signedIn();
    renderApp('/account/accounts');
    await findAccountsTable();
    const filters = await filtersOf();
    const user = userEvent.setup();
    await user.selectOptions(within(filters).getByLabelText('Status'), 'Inactive');
    await user.type(within(filters).getByLabelText('Friendly identifier'), 'acme-01');
    await user.selectOptions(within(filters).getByLabelText('Type'), 'Partner');
    await user.type(within(filters).getByLabelText('Partner account'), 'Northwind');
    await waitFor(() =>
      expect(latestListQuery(requests)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name:asc',
        active: 'false',
        friendly_identifier: 'acme-01',
        type: 'partner',
        partnerAccountNameLike: 'Northwind',
      }),
    );
  });

  it('filters the end date by days from today or by a range of dates', async () => {
    const { requests } = signedIn();
    renderApp('/account/accounts');
    await findAccountsTable();
    const filters = await filtersOf();
    const user = userEvent.setup();
    await user.selectOptions(within(filters).getByLabelText('End date'), 'Ends within a number of days');
    await waitFor(() => expect(latestListQuery(requests).endsWithinDays).toBe('30'));
    const days = within(filters).getByLabelText('Days from today');
    await user.clear(days);
    await user.type(days, '90');
    await waitFor(() => expect(latestListQuery(requests).endsWithinDays).toBe('90'));

    await user.selectOptions(within(filters).getByLabelText('End date'), 'Ends between two dates');
    await user.type(within(filters).getByLabelText('Ends on or after'), '2026-03-01');
    await user.type(within(filters).getByLabelText('Ends on or before'), '2026-06-30');
    await waitFor(() =>
      expect(latestListQuery(requests)).toMatchObject({ endDateFrom: '2026-03-01', endDateTo: '2026-06-30' }),
    );
    expect(latestListQuery(requests).endsWithinDays).toBeUndefined();
  });

  it('refuses a range whose first date is after the second, and says why', async () => {
    const { requests } = signedIn();
    renderApp('/account/accounts');
    await findAccountsTable();
    const filters = await filtersOf();
    const user = userEvent.setup();
    await user.selectOptions(within(filters).getByLabelText('End date'), 'Ends between two dates');
    await user.type(within(filters).getByLabelText('Ends on or after'), '2026-06-30');
    await waitFor(() => expect(latestListQuery(requests).endDateFrom).toBe('2026-06-30'));
    const to = within(filters).getByLabelText('Ends on or before');
    await user.type(to, '2026-03-01');
    expect(await within(filters).findByText('The first date must not be after the second.')).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(listQueries(requests).some((query) => query.has('endDateTo'))).toBe(false);
  });

  it('sorts by a column from its header, toggling the direction', async () => {
    const { requests } = signedIn();
    renderApp('/account/accounts');
    const table = await findAccountsTable();
    const user = userEvent.setup();
    await user.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(latestListQuery(requests).sort).toBe('name:desc'));
    expect(within(table).getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    await user.click(within(table).getByRole('button', { name: 'End date' }));
    await waitFor(() => expect(latestListQuery(requests).sort).toBe('end_date:asc'));
    expect(within(table).getByRole('columnheader', { name: /Name/ }).hasAttribute('aria-sort')).toBe(false);
    await user.click(within(table).getByRole('button', { name: 'Partner account' }));
    await waitFor(() => expect(latestListQuery(requests).sort).toBe('partner_account_name:asc'));
  });

  it('keeps filters and sort for the same user across a reload, and not for another user', async () => {
    const first = signedIn();
    const firstView = renderApp('/account/accounts');
    let table = await findAccountsTable();
    const user = userEvent.setup();
    await user.selectOptions(within(await filtersOf()).getByLabelText('Status'), 'All statuses');
    await user.type(within(await filtersOf()).getByLabelText('Name'), 'acme');
    await user.click(within(table).getByRole('button', { name: 'Type' }));
    await waitFor(() =>
      expect(latestListQuery(first.requests)).toMatchObject({ name: 'acme', sort: 'type:asc' }),
    );
    firstView.unmount();

    const again = signedIn();
    const secondView = renderApp('/account/accounts');
    table = await findAccountsTable();
    await waitFor(() =>
      expect(latestListQuery(again.requests)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'type:asc',
        name: 'acme',
      }),
    );
    const filters = await filtersOf();
    expect((within(filters).getByLabelText('Name') as HTMLInputElement).value).toBe('acme');
    expect((within(filters).getByLabelText('Status') as HTMLSelectElement).value).toBe('all');
    expect(within(table).getByRole('columnheader', { name: /Type/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    secondView.unmount();

    const other = signedIn({ profile: profileFixture({ id: OTHER_USER_ID }) });
    renderApp('/account/accounts');
    await findAccountsTable();
    await waitFor(() =>
      expect(latestListQuery(other.requests)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name:asc',
        active: 'true',
      }),
    );
  });

  it('does not send partner filters stored while their columns were visible', async () => {
    const first = signedIn();
    const view = renderApp('/account/accounts');
    await findAccountsTable();
    const user = userEvent.setup();
    await user.selectOptions(within(await filtersOf()).getByLabelText('Type'), 'Partner');
    await waitFor(() => expect(latestListQuery(first.requests).type).toBe('partner'));
    view.unmount();

    const flagOff = signedIn({ flags: { partner_accounts: false } });
    renderApp('/account/accounts');
    await findAccountsTable();
    await waitFor(() => expect(screen.queryByLabelText('Type')).toBeNull());
    await waitFor(() => expect(latestListQuery(flagOff.requests).type).toBeUndefined());
  });

  it('resets every filter to active accounts only', async () => {
    const { requests } = signedIn();
    renderApp('/account/accounts');
    await findAccountsTable();
    const user = userEvent.setup();
    await user.selectOptions(within(await filtersOf()).getByLabelText('Status'), 'Inactive');
    await user.type(within(await filtersOf()).getByLabelText('Name'), 'old');
    await waitFor(() => expect(latestListQuery(requests)).toMatchObject({ active: 'false', name: 'old' }));
    await user.click(within(await filtersOf()).getByRole('button', { name: 'Reset filters' }));
    await waitFor(() =>
      expect(latestListQuery(requests)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name:asc',
        active: 'true',
      }),
    );
    expect((within(await filtersOf()).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });
});

describe('expiry banners', () => {
  it('tells a system user how many accounts expire within 30 and 60 days', async () => {
    signedIn({ expiring: { '30': 3, '60': 1 } });
    renderApp('/account/accounts');
    expect((await screen.findByRole('alert')).textContent).toContain('3 accounts expire within 30 days');
    expect(screen.getByText('1 account expires within 60 days')).toBeTruthy();
  });

  it('applies active accounts ending within the banner’s days when clicked, and shows it in the filters', async () => {
    const { requests } = signedIn({ expiring: { '30': 3, '60': 5 } });
    renderApp('/account/accounts');
    await findAccountsTable();
    const user = userEvent.setup();
    await user.type(within(await filtersOf()).getByLabelText('Name'), 'acme');
    await waitFor(() => expect(latestListQuery(requests).name).toBe('acme'));
    await user.click(await screen.findByRole('button', { name: /5 accounts expire within 60 days/ }));
    await waitFor(() =>
      expect(latestListQuery(requests)).toEqual({
        limit: '10',
        offset: '0',
        sort: 'name:asc',
        active: 'true',
        endsWithinDays: '60',
      }),
    );
    const filters = await filtersOf();
    expect((within(filters).getByLabelText('End date') as HTMLSelectElement).value).toBe('within');
    expect((within(filters).getByLabelText('Days from today') as HTMLInputElement).value).toBe('60');
    expect((within(filters).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('stays dismissed after a reload until more accounts expire', async () => {
    signedIn({ expiring: { '30': 2, '60': 4 } });
    const view = renderApp('/account/accounts');
    await screen.findByText('2 accounts expire within 30 days');
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: 'Dismiss the notice about accounts expiring within 30 days' }),
    );
    expect(screen.queryByText('2 accounts expire within 30 days')).toBeNull();
    view.unmount();

    signedIn({ expiring: { '30': 2, '60': 4 } });
    const reloaded = renderApp('/account/accounts');
    await screen.findByText('4 accounts expire within 60 days');
    expect(screen.queryByText('2 accounts expire within 30 days')).toBeNull();
    reloaded.unmount();

    signedIn({ expiring: { '30': 3, '60': 4 } });
    renderApp('/account/accounts');
    expect(await screen.findByText('3 accounts expire within 30 days')).toBeTruthy();
  });

  it('shows no banner for a count of zero', async () => {
    signedIn({ expiring: { '30': 0, '60': 2 } });
    renderApp('/account/accounts');
    await screen.findByText('2 accounts expire within 60 days');
    expect(screen.queryByText(/within 30 days/)).toBeNull();
  });

  it('is not shown to partner scope, which does not ask for the counts', async () => {
    const { requests } = signedIn({
      profile: partnerProfile(),
      permissions: PARTNER_ADMINISTRATOR,
      expiring: { '30': 3, '60': 5 },
    });
    renderApp('/account/accounts');
    await findAccountsTable();
    expect(screen.queryByText(/expire within/)).toBeNull();
    expect(queriesOf(requests, '/account/ui-api/v1/tenants/expiring')).toHaveLength(0);
  });
});
