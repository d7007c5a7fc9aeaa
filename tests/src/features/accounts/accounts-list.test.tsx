// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FeatureFlag } from '../../../../contract/feature-flags.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import {
  ACCOUNT_ADMINISTRATOR,
  ACCOUNT_MANAGER_ONLY,
  accountProfile,
  chooseMenuItem,
  columnHeaders,
  findAccountsTable,
  listQueries,
  OTHER_PARTNER_ID,
  PARTNER_ACCOUNT_ID,
  PARTNER_ADMINISTRATOR,
  partnerProfile,
  SYSTEM_ADMINISTRATOR,
  signedIn,
  tenantFixture,
} from './accounts-list-support.ts';

const OPTIONAL_COLUMNS = ['Type', 'Partner account', 'Federation status', 'Federated account ID'];

function rowOf(table: HTMLElement, accountName: string): HTMLElement {
  const row = within(table).getByRole('rowheader', { name: accountName }).closest('tr');
  if (!row) throw new Error(`No row for ${accountName}`);
  return row;
}

describe('accounts list', () => {
  it('asks for the first ten active accounts by name and shows them under the title Accounts', async () => {
    const { requests } = signedIn({ tenants: [tenantFixture({ name: 'Contoso' })], total: 1 });
    renderApp('/account/accounts');
    expect(await screen.findByRole('heading', { name: 'Accounts', level: 1 })).toBeTruthy();
    const table = await findAccountsTable();
    expect(within(table).getByRole('rowheader', { name: 'Contoso' })).toBeTruthy();
    const [query] = listQueries(requests);
    expect([...(query?.entries() ?? [])]).toEqual([
      ['limit', '10'],
      ['offset', '0'],
      ['sort', 'name:asc'],
      ['active', 'true'],
    ]);
    expect(screen.getByText('1–1 of 1')).toBeTruthy();
  });

  it('shows the name column as sorted ascending by default', async () => {
    signedIn();
    renderApp('/account/accounts');
    const table = await findAccountsTable();
    const nameHeader = within(table).getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(within(nameHeader).getByRole('button', { name: 'Name' })).toBeTruthy();
  });

  describe('optional columns', () => {
    const cases: {
      title: string;
      profile: Profile;
      flags: Partial<Record<FeatureFlag, boolean>>;
      shown: string[];
    }[] = [
      {
        title: 'system scope with both flags on sees type, partner and federation',
        profile: profileFixture(),
        flags: {},
        shown: OPTIONAL_COLUMNS,
      },
      {
        title: 'partner scope with the partner flag on sees type and partner',
        profile: partnerProfile(),
        flags: { federated_info: false },
        shown: ['Type', 'Partner account'],
      },
      {
        title: 'account scope never sees type and partner',
        profile: accountProfile(),
        flags: {},
        shown: ['Federation status', 'Federated account ID'],
      },
      {
        title: 'system scope with the partner flag off sees neither type nor partner',
        profile: profileFixture(),
        flags: { partner_accounts: false, federated_info: false },
        shown: [],
      },
    ];
    it.each(cases)('$title', async ({ profile, flags, shown }) => {
      signedIn({ profile, flags, permissions: ['VIEW_ACCOUNT'] });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      await waitFor(() =>
        expect(columnHeaders(table).filter((header) => OPTIONAL_COLUMNS.includes(header))).toEqual(shown),
      );
      expect(columnHeaders(table).slice(0, 5)).toEqual([
        'Name',
        'Status',
        'Friendly identifier',
        'Start date',
        'End date',
      ]);
    });
  });

  it('shows "system" for an account without partner and the identifier after the last hyphen', async () => {
    signedIn({
      tenants: [
        tenantFixture({ name: 'Direct customer' }),
        tenantFixture({
          name: 'Reseller customer',
          partner_account_id: PARTNER_ACCOUNT_ID,
          partner_account_name: 'Northwind-Partners-NW01',
        }),
      ],
    });
    renderApp('/account/accounts');
    const table = await findAccountsTable();
    await waitFor(() => expect(columnHeaders(table)).toContain('Partner account'));
    expect(within(rowOf(table, 'Direct customer')).getByText('system')).toBeTruthy();
    const resold = rowOf(table, 'Reseller customer');
    expect(within(resold).getByText('Northwind-Partners-NW01')).toBeTruthy();
    expect(within(resold).getByText('NW01')).toBeTruthy();
  });

  it('links active accounts to their details, and inactive ones only for system scope', async () => {
    const tenants = [tenantFixture({ name: 'Running' }), tenantFixture({ name: 'Ended', active: false })];
    signedIn({ profile: partnerProfile(), permissions: PARTNER_ADMINISTRATOR, tenants });
    const partnerView = renderApp('/account/accounts');
    let table = await findAccountsTable();
    expect(within(rowOf(table, 'Running')).getByRole('link', { name: 'Running' }).getAttribute('href')).toBe(
      `/account/accounts/${tenants[0]?.id}`,
    );
    expect(within(rowOf(table, 'Ended')).queryByRole('link', { name: 'Ended' })).toBeNull();
    partnerView.unmount();

    signedIn({ permissions: SYSTEM_ADMINISTRATOR, tenants });
    renderApp('/account/accounts');
    table = await findAccountsTable();
    expect(within(rowOf(table, 'Ended')).getByRole('link', { name: 'Ended' })).toBeTruthy();
  });

  describe('Edit account', () => {
    const own = tenantFixture({ name: 'Own customer', partner_account_id: PARTNER_ACCOUNT_ID });
    const foreign = tenantFixture({ name: 'Foreign customer', partner_account_id: OTHER_PARTNER_ID });
    const direct = tenantFixture({ name: 'Direct customer' });

    it('is on every row for a system administrator, leading to the edit page', async () => {
      signedIn({ tenants: [own, foreign, direct] });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      for (const account of [own, foreign, direct]) {
        const edit = within(rowOf(table, account.name)).getByRole('link', { name: /^Edit account/ });
        expect(edit.getAttribute('href')).toBe(`/account/accounts/${account.id}/edit`);
      }
    });

    it('is only on rows of the partner’s own accounts for a partner administrator', async () => {
      signedIn({
        profile: partnerProfile(),
        permissions: PARTNER_ADMINISTRATOR,
        tenants: [own, foreign, direct],
      });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      expect(within(rowOf(table, 'Own customer')).getByRole('link', { name: /^Edit account/ })).toBeTruthy();
      expect(
        within(rowOf(table, 'Foreign customer')).queryByRole('link', { name: /^Edit account/ }),
      ).toBeNull();
      expect(
        within(rowOf(table, 'Direct customer')).queryByRole('link', { name: /^Edit account/ }),
      ).toBeNull();
    });

    it('is nowhere without the manage-account permission', async () => {
      signedIn({ permissions: ['VIEW_ACCOUNT'], tenants: [own, foreign, direct] });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      expect(within(table).queryAllByRole('link', { name: /^Edit account/ })).toEqual([]);
    });

    it('opens the identity product in a new tab for a linked account', async () => {
      const linked = tenantFixture({
        name: 'Linked customer',
        federation_status: 'linked',
        federated_account_id: 'idp-4711',
        federated_account_details_url: 'https://idp.example.com/accounts/4711/edit',
      });
      signedIn({ tenants: [linked] });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      const edit = within(rowOf(table, 'Linked customer')).getByRole('link', { name: /^Edit account/ });
      expect(edit.getAttribute('href')).toBe('https://idp.example.com/accounts/4711/edit');
      expect(edit.getAttribute('target')).toBe('_blank');
      expect(edit.getAttribute('rel')).toBe('noopener noreferrer');
      expect(edit.textContent).toContain('(opens in a new tab)');
      expect(within(rowOf(table, 'Linked customer')).getByText('Linked')).toBeTruthy();
      expect(within(rowOf(table, 'Linked customer')).getByText('idp-4711')).toBeTruthy();
    });

    it('never follows a linked account address that is not http(s)', async () => {
      const linked = tenantFixture({
        name: 'Odd customer',
        federation_status: 'linked',
        federated_account_details_url: 'javascript:alert(1)',
      });
      signedIn({ tenants: [linked] });
      renderApp('/account/accounts');
      const table = await findAccountsTable();
      const edit = within(rowOf(table, 'Odd customer')).getByRole('link', { name: /^Edit account/ });
      expect(edit.getAttribute('href')).toBe(`/account/accounts/${linked.id}/edit`);
    });
  });

  describe('create control', () => {
    it('is a menu of standard and partner account for system scope with the partner flag on', async () => {
      signedIn();
      const { router } = renderApp('/account/accounts');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Create account' }));
      expect(await screen.findByRole('menuitem', { name: 'Standard account' })).toBeTruthy();
      await user.keyboard('{Escape}');
      await chooseMenuItem(user, 'Create account', 'Partner account');
      await waitFor(() => expect(router.state.location.pathname).toBe('/accounts/create-partner-account'));
      expect(router.state.location.state.createPartner).toBe(true);
    });

    it('opens standard account creation from the menu without the partner mark', async () => {
      signedIn();
      const { router } = renderApp('/account/accounts');
      await chooseMenuItem(userEvent.setup(), 'Create account', 'Standard account');
      await waitFor(() => expect(router.state.location.pathname).toBe('/accounts/create-account'));
      expect(router.state.location.state.createPartner).toBeUndefined();
    });

    it.each([
      { title: 'system scope with the partner flag off', profile: profileFixture(), partner: false },
      { title: 'partner scope', profile: partnerProfile(), partner: true },
    ])('is one create-account button for $title', async ({ profile, partner }) => {
      signedIn({ profile, permissions: PARTNER_ADMINISTRATOR, flags: { partner_accounts: partner } });
      renderApp('/account/accounts');
      await findAccountsTable();
      const create = await screen.findByRole('link', { name: 'Create account' });
      expect(create.getAttribute('href')).toBe('/account/accounts/create-account');
      expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    });

    it.each([
      { title: 'account scope', profile: accountProfile(), permissions: ACCOUNT_ADMINISTRATOR },
      {
        title: 'a system user without organization and permission rights',
        profile: profileFixture(),
        permissions: ACCOUNT_MANAGER_ONLY,
      },
    ])('is absent for $title', async ({ profile, permissions }) => {
      signedIn({ profile, permissions });
      renderApp('/account/accounts');
      await findAccountsTable();
      expect(screen.queryByRole('link', { name: 'Create account' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    });
  });

  it('pages by ten: the next page asks for offset 10 and shows its range', async () => {
    const tenants = Array.from({ length: 10 }, () => tenantFixture());
    const { requests } = signedIn({ tenants, total: 35 });
    const { router } = renderApp('/account/accounts');
    await findAccountsTable();
    expect(screen.getByText('1–10 of 35')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('11–20 of 35');
    expect(listQueries(requests).at(-1)?.get('offset')).toBe('10');
    expect(router.state.location.search).toEqual({ page: 2 });
  });

  it('starts at the page in the address', async () => {
    const { requests } = signedIn({ tenants: Array.from({ length: 10 }, () => tenantFixture()), total: 45 });
    renderApp('/account/accounts?page=4');
    await screen.findByText('31–40 of 45');
    expect(listQueries(requests).every((query) => query.get('offset') === '30')).toBe(true);
  });

  it('shows a failure with a way to ask again', async () => {
    let fail = true;
    signedIn({
      extra: {
        'GET /account/ui-api/v1/tenants': () =>
          fail
            ? apiError(503, 'Maintenance window.')
            : json({ items: [tenantFixture({ name: 'Back again' })], total: 1 }),
      },
    });
    renderApp('/account/accounts');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The service is unavailable at the moment. Try again later.',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    const table = await findAccountsTable();
    expect(within(table).getByRole('rowheader', { name: 'Back again' })).toBeTruthy();
  });
});
