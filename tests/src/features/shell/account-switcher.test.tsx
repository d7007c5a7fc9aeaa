// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TenantSummary } from '../../../../contract/schemas/tenants.ts';
import { ACCOUNT_ID, OTHER_ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import {
  API,
  accountProfile,
  chooseMenuItem,
  queriesOf,
  SYSTEM_ADMINISTRATOR,
  signedIn,
  tenantFixture,
} from '../accounts/accounts-list-support.ts';

const USER_ID = profileFixture().id;
const OTHER_USER_ID = 'c0a80101-0000-4000-8000-000000000002';
const RECENT_KEY = `trust-console.recent-accounts.${USER_ID}`;

const northwind = tenantFixture({ name: 'Northwind', display_name: 'Northwind Traders' });
const contoso = tenantFixture({ name: 'Contoso', display_name: 'Contoso Ltd' });
const fabrikam = tenantFixture({ name: 'Fabrikam', display_name: 'Fabrikam Inc' });

/**
 * GET tenants as the platform answers it: the switcher's first page (limit 50) with `reachable`
 * accounts in all, a name search among `searchable`.
 */
function tenantsApi(reachable: number, searchable: readonly TenantSummary[]) {
  return {
    [`GET ${API}/tenants`]: ({ url }: { url: URL }) => {
      const name = url.searchParams.get('name')?.toLowerCase();
      const items = name
        ? searchable.filter((tenant) => tenant.name.toLowerCase().includes(name))
        : searchable.slice(0, 50);
      return json({ items, total: name ? items.length : reachable });
    },
  };
}

function permissionAccountIds(requests: readonly URL[]): (string | null)[] {
  return queriesOf(requests, `${API}/permission`).map((query) => query.get('accountId'));
}

/**
 * Keystrokes 50 ms apart, a fast typist's pace. Ark's combobox writes its input from state after each
 * render; in jsdom, keys 10 ms apart on a loaded machine could arrive in between and one was lost
 * ("norh" for "north"). Chromium does not lose any: typed with no pause, at 8× CPU slowdown, while
 * search answers arrived mid-word, every keystroke stayed.
 */
function typist() {
  return userEvent.setup({ delay: 50 });
}

async function findHeader() {
  return screen.findByRole('banner');
}

describe('header account switcher', () => {
  it('lists every account a system user reaches in a menu while there are at most 50', async () => {
    const { requests } = signedIn({ extra: tenantsApi(3, [contoso, fabrikam, northwind]) });
    renderApp('/account/profile');
    const user = userEvent.setup();
    await chooseMenuItem(user, 'Account: System Account. Switch account', 'Northwind Traders');
    await waitFor(() => expect(permissionAccountIds(requests)).toContain(northwind.id));
    expect(
      within(await findHeader()).getByRole('button', { name: /Account: Northwind Traders/ }),
    ).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(RECENT_KEY) ?? '[]')).toEqual([
      { id: northwind.id, display_name: 'Northwind Traders' },
    ]);
  });

  it('searches active accounts by name on the server above 50 accounts and switches to the choice', async () => {
    const { requests } = signedIn({ extra: tenantsApi(120, [contoso, fabrikam, northwind]) });
    renderApp('/account/profile');
    const search = await screen.findByRole('combobox', { name: 'Switch account' });
    const user = typist();
    await user.type(search, 'north');
    const option = await screen.findByRole('option', { name: /Northwind Traders/ });
    const searches = queriesOf(requests, `${API}/tenants`).filter((query) => query.has('name'));
    expect(searches.map((query) => [...query.entries()])).toEqual([
      [
        ['name', 'north'],
        ['active', 'true'],
        ['limit', '20'],
      ],
    ]);
    expect(option).toBeTruthy();
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(permissionAccountIds(requests)).toContain(northwind.id));
    expect(await within(await findHeader()).findByText('Northwind Traders')).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(RECENT_KEY) ?? '[]')[0]).toEqual({
      id: northwind.id,
      display_name: 'Northwind Traders',
    });
  });

  it('says when no active account matches, and when there are more matches than shown', async () => {
    const many = Array.from({ length: 20 }, (_, index) => tenantFixture({ name: `Contoso ${index}` }));
    signedIn({
      extra: {
        ...tenantsApi(120, []),
        [`GET ${API}/tenants`]: ({ url }: { url: URL }) => {
          const name = url.searchParams.get('name');
          if (name === null) return json({ items: [], total: 120 });
          return name === 'contoso' ? json({ items: many, total: 35 }) : json({ items: [], total: 0 });
        },
      },
    });
    renderApp('/account/profile');
    const search = await screen.findByRole('combobox', { name: 'Switch account' });
    const user = typist();
    await user.type(search, 'zzz');
    await waitFor(() =>
      expect(screen.getAllByText('No active account matches this name.').length).toBeGreaterThan(0),
    );
    await user.clear(search);
    await user.type(search, 'contoso');
    await waitFor(() =>
      expect(
        screen.getAllByText('20 of 35 accounts shown. Type more of the name to narrow the search.').length,
      ).toBeGreaterThan(0),
    );
  });

  it('offers the user’s recently used accounts, most recent first, before anything is typed', async () => {
    const recent = [contoso, northwind].map(({ id, display_name }) => ({ id, display_name }));
    window.localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
    window.localStorage.setItem(
      `trust-console.recent-accounts.${OTHER_USER_ID}`,
      JSON.stringify([{ id: fabrikam.id, display_name: fabrikam.display_name }]),
    );
    signedIn({ extra: tenantsApi(120, []) });
    renderApp('/account/profile');
    const search = await screen.findByRole('combobox', { name: 'Switch account' });
    await userEvent.setup().click(search);
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('group', { name: 'Recently used' })).toBeTruthy();
    const names = within(listbox)
      .getAllByRole('option')
      .map((option) => option.querySelector('[data-part="item-text"]')?.textContent);
    expect(names).toEqual(['Contoso Ltd', 'Northwind Traders']);
  });

  it('keeps working in an account chosen by search after a reload', async () => {
    window.localStorage.setItem(
      RECENT_KEY,
      JSON.stringify([{ id: northwind.id, display_name: 'Northwind Traders' }]),
    );
    window.localStorage.setItem('trust-console.active-account', northwind.id);
    const { requests } = signedIn({ extra: tenantsApi(120, []) });
    renderApp('/account/profile');
    expect(await within(await findHeader()).findByText('Northwind Traders')).toBeTruthy();
    expect(permissionAccountIds(requests)).toEqual([northwind.id]);
  });

  it('goes back to the primary account when the chosen one is out of reach', async () => {
    window.localStorage.setItem(
      RECENT_KEY,
      JSON.stringify([{ id: OTHER_ACCOUNT_ID, display_name: 'Moved away' }]),
    );
    window.localStorage.setItem('trust-console.active-account', OTHER_ACCOUNT_ID);
    const { requests } = signedIn({
      extra: {
        ...tenantsApi(120, []),
        [`GET ${API}/permission`]: ({ url }: { url: URL }) =>
          url.searchParams.get('accountId') === OTHER_ACCOUNT_ID
            ? apiError(404, 'Account not found.')
            : json({
                items: SYSTEM_ADMINISTRATOR.map((name) => ({ name })),
                total: SYSTEM_ADMINISTRATOR.length,
              }),
      },
    });
    renderApp('/account/profile');
    expect(await within(await findHeader()).findByText('System Account')).toBeTruthy();
    expect(permissionAccountIds(requests)).toEqual([OTHER_ACCOUNT_ID, ACCOUNT_ID]);
    expect(window.localStorage.getItem('trust-console.active-account')).toBeNull();
    expect(window.localStorage.getItem(RECENT_KEY)).toBe('[]');
  });

  it('switches an account user between the profile’s accounts without asking for more', async () => {
    const profile = accountProfile({
      accounts: [
        { id: ACCOUNT_ID, display_name: 'Example Corp', active: true, service_period: { to: null } },
        { id: OTHER_ACCOUNT_ID, display_name: 'Example Labs', active: true, service_period: { to: null } },
      ],
    });
    const { requests } = signedIn({ profile, permissions: ['VIEW_ACCOUNT'], extra: tenantsApi(120, []) });
    renderApp('/account/profile');
    await chooseMenuItem(userEvent.setup(), 'Account: Example Corp. Switch account', 'Example Labs');
    await waitFor(() => expect(permissionAccountIds(requests)).toContain(OTHER_ACCOUNT_ID));
    expect(queriesOf(requests, `${API}/tenants`)).toEqual([]);
  });
});
