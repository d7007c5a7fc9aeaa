// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ID, OTHER_ACCOUNT_ID, organizationFixture, profileFixture } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import { BASE, MANAGER, organizationsApi, READER, tenantFixture } from './organizations-api.ts';

function lastQuery(urls: URL[]): Record<string, string> {
  const last = urls.at(-1);
  if (!last) throw new Error('The organizations list was not requested.');
  return Object.fromEntries(last.searchParams);
}

describe('organizations list', () => {
  it('lists the selected account’s organizations, 20 a page by name, with their details', async () => {
    const { urls } = organizationsApi(READER);
    renderApp('/account/ca/organizations');
    expect(await screen.findByRole('heading', { name: 'Organizations', level: 1 })).toBeTruthy();
    expect(screen.getByText('Account: System Account')).toBeTruthy();
    expect(lastQuery(urls)).toEqual({ accountId: ACCOUNT_ID, limit: '20', offset: '0', sort: 'name:asc' });

    const table = screen.getByRole('table', { name: 'Organizations' });
    const row = within(table).getByRole('row', { name: /Acme Trust GmbH/ });
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['Hauptstraße 1', 'Berlin', '', '10115', 'Germany', '+49 30 1234567', '1']);
    expect(within(row).getByRole('link', { name: 'Acme Trust GmbH' }).getAttribute('href')).toBe(
      `/account/ca/organizations/${organizationFixture().id}`,
    );
    expect(screen.getByRole('status').textContent).toBe('1 organization');
  });

  it('asks for the account named in the address and says which it is', async () => {
    const { urls } = organizationsApi(READER, {
      [`GET ${BASE}/tenant/${OTHER_ACCOUNT_ID}`]: () => json(tenantFixture(OTHER_ACCOUNT_ID, 'Example Corp')),
    });
    renderApp(`/account/ca/organizations?accountId=${OTHER_ACCOUNT_ID}`);
    await screen.findByRole('table');
    expect(lastQuery(urls).accountId).toBe(OTHER_ACCOUNT_ID);
    expect(await screen.findByText('Account: Example Corp')).toBeTruthy();
  });

  it('names the selected account from the profile when the user works in several', async () => {
    const profile = profileFixture({
      accounts: [
        { id: ACCOUNT_ID, display_name: 'System Account', active: true, service_period: { to: null } },
        { id: OTHER_ACCOUNT_ID, display_name: 'Example Corp', active: true, service_period: { to: null } },
      ],
    });
    const { urls } = organizationsApi(READER, {}, profile);
    renderApp(`/account/ca/organizations?accountId=${OTHER_ACCOUNT_ID}`);
    expect(await screen.findByText('Account: Example Corp')).toBeTruthy();
    expect(lastQuery(urls).accountId).toBe(OTHER_ACCOUNT_ID);
  });

  it('filters by name once the user pauses typing, from the first page', async () => {
    const { urls } = organizationsApi(READER, {
      [`GET ${BASE}/organizations`]: ({ url }) => {
        urls.push(url);
        return json({ items: [organizationFixture()], total: 45 });
      },
    });
    const { router } = renderApp('/account/ca/organizations?page=2');
    await screen.findByRole('table');
    expect(lastQuery(urls).offset).toBe('20');
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'acme');
    await waitFor(() => expect(lastQuery(urls).name).toBe('acme'));
    // One request for the whole word, not one a keystroke.
    const names = urls.flatMap((url) => url.searchParams.getAll('name'));
    expect(new Set(names)).toEqual(new Set(['acme']));
    expect(lastQuery(urls).offset).toBe('0');
    expect(router.state.location.search).toEqual({ name: 'acme' });
  });

  it('pages by 20 through the pagination', async () => {
    const { urls } = organizationsApi(READER, {
      [`GET ${BASE}/organizations`]: ({ url }) => {
        urls.push(url);
        return json({ items: [organizationFixture()], total: 45 });
      },
    });
    renderApp('/account/ca/organizations');
    await screen.findByRole('table');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastQuery(urls).offset).toBe('20'));
    await user.click(screen.getByRole('button', { name: 'Page 3 of 3' }));
    await waitFor(() => expect(lastQuery(urls).offset).toBe('40'));
    expect(lastQuery(urls).limit).toBe('20');
  });

  it('sorts by a column and says so in aria-sort', async () => {
    const { urls } = organizationsApi(READER);
    renderApp('/account/ca/organizations');
    const table = await screen.findByRole('table');
    const nameHeader = within(table).getByRole('columnheader', { name: /Name/ });
    const cityHeader = within(table).getByRole('columnheader', { name: /City/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(cityHeader.getAttribute('aria-sort')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(cityHeader).getByRole('button', { name: /City/ }));
    await waitFor(() => expect(lastQuery(urls).sort).toBe('city:asc'));
    await waitFor(() => expect(cityHeader.getAttribute('aria-sort')).toBe('ascending'));
    expect(nameHeader.getAttribute('aria-sort')).toBeNull();

    await user.click(within(cityHeader).getByRole('button', { name: /City/ }));
    await waitFor(() => expect(lastQuery(urls).sort).toBe('city:desc'));
    await waitFor(() => expect(cityHeader.getAttribute('aria-sort')).toBe('descending'));
  });

  it('reads the sort from the address and ignores one it does not know', async () => {
    const { urls } = organizationsApi(READER);
    renderApp('/account/ca/organizations?sort=country:desc');
    await screen.findByRole('table');
    expect(lastQuery(urls).sort).toBe('country:desc');
    expect(screen.getByRole('columnheader', { name: /Country/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    renderApp('/account/ca/organizations?sort=phone:desc');
    await waitFor(() => expect(lastQuery(urls).sort).toBe('name:asc'));
  });

  it('moves a page past the end of the list to its last page', async () => {
    const { urls } = organizationsApi(READER, {
      [`GET ${BASE}/organizations`]: ({ url }) => {
        urls.push(url);
        return json({
          items: url.searchParams.get('offset') === '20' ? [organizationFixture()] : [],
          total: 25,
        });
      },
    });
    const { router } = renderApp('/account/ca/organizations?page=5');
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    expect(lastQuery(urls).offset).toBe('20');
    expect(await screen.findByRole('row', { name: /Acme Trust GmbH/ })).toBeTruthy();
  });

  it('invites a manager to create the first organization of an empty account', async () => {
    organizationsApi(MANAGER, { [`GET ${BASE}/organizations`]: () => json({ items: [], total: 0 }) });
    renderApp('/account/ca/organizations');
    expect(await screen.findByText('This account has no organizations yet.')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: 'Create organization' });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/account/ca/organizations/create',
      '/account/ca/organizations/create',
    ]);
  });

  it('offers to clear a search that found nothing', async () => {
    const { urls } = organizationsApi(READER, {
      [`GET ${BASE}/organizations`]: ({ url }) => {
        urls.push(url);
        const found = url.searchParams.has('name') ? [] : [organizationFixture()];
        return json({ items: found, total: found.length });
      },
    });
    renderApp('/account/ca/organizations?name=zzz');
    expect(await screen.findByText('No organization name contains “zzz”.')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(lastQuery(urls).name).toBeUndefined();
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search by name' }));
  });

  it('hides the create button from readers', async () => {
    organizationsApi(READER);
    renderApp('/account/ca/organizations');
    await screen.findByRole('table');
    expect(screen.queryByRole('link', { name: 'Create organization' })).toBeNull();
  });

  it('shows the create button to managers, keeping the list’s account', async () => {
    organizationsApi(MANAGER, {
      [`GET ${BASE}/tenant/${OTHER_ACCOUNT_ID}`]: () => json(tenantFixture(OTHER_ACCOUNT_ID, 'Example Corp')),
    });
    renderApp(`/account/ca/organizations?accountId=${OTHER_ACCOUNT_ID}`);
    const link = await screen.findByRole('link', { name: 'Create organization' });
    expect(link.getAttribute('href')).toBe(`/account/ca/organizations/create?accountId=${OTHER_ACCOUNT_ID}`);
  });

  it('shows the 403 page to a user who may not view organizations', async () => {
    organizationsApi(['VIEW_ACCOUNT']);
    renderApp('/account/ca/organizations');
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
