// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ID, customerFixture, organizationFixture, profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import {
  ACCOUNT_ID,
  accountsApi,
  BASE,
  linkedCustomerFixture,
  noContent,
  PARTNER_ID,
  partnerProfile,
  stubScrollIntoView,
} from './account-details-support.ts';

const DETAILS_PATH = `/account/accounts/${CUSTOMER_ID}`;

async function statusBlock() {
  await screen.findByRole('heading', { name: 'Account: Example Corp', level: 1 });
  const block = screen.getByLabelText('Account status');
  const entries = within(block)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
  return Object.fromEntries(entries);
}

async function sideNavigation() {
  return screen.findByRole('navigation', { name: 'Account sections' });
}

describe('account details', () => {
  it('shows the status block in the user’s date format with the language name and type', async () => {
    accountsApi({ account: customerFixture({ partner_account_name: 'Partner Ltd' }) });
    renderApp(DETAILS_PATH);
    // The type waits for the feature flags, which load beside the account.
    await screen.findByText('Account type');
    expect(await statusBlock()).toEqual({
      Status: 'Active',
      'Account ID': CUSTOMER_ID,
      'Service start': '15-Jan-2026',
      'Service end': '30-Jun-2099',
      Language: 'Deutsch',
      'Partner account': 'Partner Ltd',
      'Account type': 'Standard',
    });
    expect(within(screen.getByLabelText('Account status')).getByText('Deutsch').getAttribute('lang')).toBe(
      'de',
    );
  });

  it('uses the user’s own date format, English (US) when the account has no language, and hides the type without the partner-scope flag', async () => {
    accountsApi({
      account: customerFixture({ locale: '', active: false }),
      profile: profileFixture({ date_format: 'YYYY/MM/DD' }),
      featureFlags: { partner_scope: false },
    });
    renderApp(DETAILS_PATH);
    const block = await statusBlock();
    expect(block).toMatchObject({
      Status: 'Inactive',
      'Service start': '2026/01/15',
      'Service end': '2099/06/30',
      Language: 'English (US)',
    });
    expect(block).not.toHaveProperty('Partner account');
    // The flags load after the account: the type must still not appear once they have.
    await waitFor(() => expect(screen.queryByText('Account type')).toBeNull());
  });

  it('shows the alternative page, not the 403 page, without canViewAccount', async () => {
    accountsApi({ permissions: ['MANAGE_ACCOUNT'] });
    renderApp(DETAILS_PATH);
    expect(await screen.findByRole('heading', { name: 'This account cannot be viewed' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '403' })).toBeNull();
  });

  it('says the account was not found when the server answers 404', async () => {
    accountsApi({
      extra: { [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () => apiError(404, 'Account not found.') },
    });
    renderApp(DETAILS_PATH);
    expect(await screen.findByRole('heading', { name: 'Account not found', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the accounts list' }).getAttribute('href')).toBe(
      '/account/accounts',
    );
  });

  it('says in our words that the account could not be loaded, never the server’s slip', async () => {
    accountsApi({
      extra: {
        [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () => apiError(500, "Cannot read property 'x' of null"),
      },
    });
    renderApp(DETAILS_PATH);
    expect(
      await screen.findByRole('heading', { name: 'The account could not be loaded', level: 1 }),
    ).toBeTruthy();
    expect(screen.getByText('Something went wrong on the server. Try again later.')).toBeTruthy();
    expect(screen.queryByText(/Cannot read property/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('translates a conflict by its code instead of showing the server’s English', async () => {
    accountsApi({
      extra: {
        [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () =>
          json(
            { error: { status: 409, message: 'Tenant row locked by migration 42.', code: 'conflict' } },
            409,
          ),
      },
    });
    renderApp(DETAILS_PATH);
    expect(
      await screen.findByText(
        'This conflicts with the current state of the item. Reload the page and try again.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/migration 42/)).toBeNull();
  });

  it('offers Edit to system scope for any account', async () => {
    accountsApi();
    renderApp(DETAILS_PATH);
    const nav = await sideNavigation();
    expect(within(nav).getByRole('link', { name: 'Edit account' }).getAttribute('href')).toBe(
      `${DETAILS_PATH}/edit`,
    );
  });

  it('offers Edit to a partner only for accounts under its primary account', async () => {
    accountsApi({ profile: partnerProfile(), account: customerFixture({ partner_account_id: PARTNER_ID }) });
    const first = renderApp(DETAILS_PATH);
    expect(within(await sideNavigation()).getByRole('link', { name: 'Edit account' })).toBeTruthy();
    first.unmount();

    accountsApi({ profile: partnerProfile(), account: customerFixture({ partner_account_id: ACCOUNT_ID }) });
    const second = renderApp(DETAILS_PATH);
    const nav = await sideNavigation();
    expect(within(nav).queryByRole('link', { name: 'Edit account' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Delete account' })).toBeNull();
    second.unmount();

    // Its own partner account it may not edit, deactivate or delete (decision 017), as in the list.
    accountsApi({ profile: partnerProfile(), account: customerFixture({ id: PARTNER_ID, type: 'partner' }) });
    renderApp(`/account/accounts/${PARTNER_ID}`);
    const own = await sideNavigation();
    expect(within(own).queryByRole('link', { name: 'Edit account' })).toBeNull();
    expect(within(own).queryByRole('button', { name: /^Deactivate account/ })).toBeNull();
    expect(within(own).queryByRole('button', { name: 'Delete account' })).toBeNull();
  });

  it('offers no Edit or Delete without canManageAccount', async () => {
    accountsApi({ permissions: ['VIEW_ACCOUNT', 'VIEW_ORGANIZATION'] });
    renderApp(DETAILS_PATH);
    const nav = await sideNavigation();
    expect(within(nav).queryByRole('link', { name: 'Edit account' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Delete account' })).toBeNull();
  });

  it('sends Edit of a linked account to its identity product in a new tab', async () => {
    accountsApi({ account: linkedCustomerFixture() });
    renderApp(DETAILS_PATH);
    const edit = within(await sideNavigation()).getByRole('link', { name: /Edit account/ });
    expect(edit.getAttribute('href')).toBe('https://identity.example.com/accounts/4711');
    expect(edit.getAttribute('target')).toBe('_blank');
    expect(edit.getAttribute('rel')).toBe('noopener noreferrer');
    expect(edit.textContent).toContain('(opens in a new tab)');
  });

  it('never turns a server-given script address into a link', async () => {
    accountsApi({
      account: linkedCustomerFixture({ federated_account_details_url: 'javascript:alert(1)' }),
    });
    renderApp(DETAILS_PATH);
    const nav = await sideNavigation();
    expect(within(nav).queryByRole('link', { name: /Edit account/ })).toBeNull();
    expect(screen.getByText('Example Corp (OneLogin)').closest('a')).toBeNull();
  });

  it('lists the linked account, sign-in methods and OAuth clients, with the licence history rail', async () => {
    accountsApi({
      account: linkedCustomerFixture({
        applications: [
          {
            id: 'app-1',
            name: 'ca',
            app_code: 'ca_manager',
            app_name: 'Private CA',
            context: 'ca',
            permissions: [],
            features: [
              {
                name: 'SSL certificates',
                attributes: { limit: 500, used: 120, remaining: 380, over_use: 0 },
              },
              { name: 'Private CA', attributes: { limit: -1, used: 3, remaining: -1, over_use: 0 } },
            ],
          },
          {
            id: 'app-2',
            name: 'iot',
            app_code: 'device_manager',
            app_name: 'IoT Device Manager',
            context: 'iot',
            permissions: [],
            features: [],
          },
        ],
        sign_in_methods: [
          {
            signInMethod: 'standard',
            status: 'enabled',
            mfaStatus: 'disabled',
            clientAuthCertLoginEnabled: true,
          },
        ],
        oauth_clients: [
          {
            id: 'c1',
            name: 'Build server',
            status: 'ENABLED',
            oauthClientId: 'client-77',
            oauthClientAccountId: 'x',
          },
        ],
      }),
    });
    renderApp(DETAILS_PATH);
    const linked = await screen.findByRole('region', { name: 'Linked account' });
    expect(within(linked).getByText('OneLogin')).toBeTruthy();
    expect(within(linked).getByText('ol-4711')).toBeTruthy();
    expect(
      within(linked)
        .getByRole('link', { name: /Example Corp \(OneLogin\)/ })
        .getAttribute('href'),
    ).toBe('https://identity.example.com/accounts/4711');

    const signIn = screen.getByRole('region', { name: 'Account sign-in' });
    expect(within(signIn).getByRole('heading', { name: 'Standard sign-in' })).toBeTruthy();
    expect(within(signIn).getByText('Client-certificate login')).toBeTruthy();

    const oauth = screen.getByRole('region', { name: 'OAuth integrations' });
    expect(within(oauth).getByText('client-77')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Document-signing clients' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Example Corp licence history' })).toBeTruthy();
    expect(await screen.findByText('No licence changes recorded for this account yet.')).toBeTruthy();
  });

  it('says plainly when sections are empty, and shows document-signing clients only with that licence', async () => {
    accountsApi({
      account: customerFixture({ has_dsm_license: true, sign_in_methods: [], oauth_clients: [] }),
    });
    renderApp(DETAILS_PATH);
    expect(await screen.findByText('This account has no licensed applications.')).toBeTruthy();
    expect(screen.getByText('This account has no OAuth integrations.')).toBeTruthy();
    expect(screen.getByText('This account is not linked to an external identity product.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Document-signing clients' })).toBeTruthy();
    expect(await screen.findByText('This account has no organizations.')).toBeTruthy();
  });

  it('shows what the platform does not manage yet as not configured, never as a fact', async () => {
    accountsApi({ account: customerFixture() });
    renderApp(DETAILS_PATH);
    expect(
      await screen.findByText('Sign-in methods are not configured for accounts on this platform yet.'),
    ).toBeTruthy();
    expect(
      screen.getByText('OAuth integrations are not configured for accounts on this platform yet.'),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Standard sign-in' })).toBeNull();
  });

  it('shows the account’s organizations as cards with the country name and organization links', async () => {
    const { calls } = accountsApi({
      extra: {
        [`GET ${BASE}/organizations`]: () =>
          json({
            items: [
              organizationFixture({
                id: 'org-1',
                account_id: CUSTOMER_ID,
                name: 'Example Labs',
                contacts_count: 0,
              }),
            ],
            total: 1,
          }),
      },
    });
    renderApp(DETAILS_PATH);
    const card = await screen.findByRole('article', { name: 'Example Labs' });
    expect(within(card).getByText('Germany')).toBeTruthy();
    expect(within(card).getByText('10115')).toBeTruthy();
    // The state was left empty: said in words, not left as a blank or a dash.
    expect(within(card).getByText('Not given')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Edit Example Labs' }).getAttribute('href')).toBe(
      '/account/ca/organizations/org-1/edit',
    );
    expect(screen.getByRole('link', { name: 'Create organization' }).getAttribute('href')).toBe(
      `/account/ca/organizations/create?accountId=${CUSTOMER_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Manage organizations' }).getAttribute('href')).toBe(
      `/account/ca/organizations?accountId=${CUSTOMER_ID}`,
    );
    const request = calls.find((call) => call.path === `${BASE}/organizations`);
    expect(request).toBeTruthy();
  });

  it('opens a collapsed section from its link in the side navigation', async () => {
    const scrollIntoView = stubScrollIntoView();
    accountsApi();
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    const trigger = await screen.findByRole('button', { name: 'Licences' });
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    const nav = await sideNavigation();
    expect(nav.querySelectorAll('[aria-current]')).toHaveLength(0);
    await user.click(within(nav).getByRole('link', { name: 'Licences' }));
    await waitFor(() => expect(trigger.getAttribute('aria-expanded')).toBe('true'));
    expect([...nav.querySelectorAll('[aria-current]')].map((link) => link.textContent)).toEqual(['Licences']);
    expect(document.activeElement).toBe(trigger);
    expect(scrollIntoView.mock.contexts).toContain(document.getElementById('licences'));
  });
});

describe('unlinking an account', () => {
  it('enables the confirmation only for exactly UNLINK, unlinks and shows the success banner', async () => {
    let linked = true;
    const { calls } = accountsApi({
      extra: {
        [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () =>
          json(
            linked
              ? linkedCustomerFixture({ can_account_be_unlinked: true })
              : customerFixture({ federation_status: 'unlinked' }),
          ),
        [`POST ${BASE}/tenant/${CUSTOMER_ID}/unlink`]: () => {
          linked = false;
          return noContent();
        },
      },
    });
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Unlink account' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Unlink account' });
    const confirm = within(dialog).getByRole('button', { name: 'Unlink account' });
    const input = within(dialog).getByLabelText('Type UNLINK to confirm');
    expect(input.getAttribute('maxlength')).toBe('256');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(input, 'unlink');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.clear(input);
    await user.type(input, 'UNLINK ');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(input, '{Backspace}');
    expect(confirm.hasAttribute('disabled')).toBe(false);
    await user.click(confirm);

    expect(
      await screen.findByText('The account was unlinked from its single sign-in identity.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // The Unlink button is gone with the link: focus lands on the news instead of the page's start.
    await waitFor(() =>
      expect(document.activeElement?.textContent).toContain(
        'The account was unlinked from its single sign-in identity.',
      ),
    );
    const unlink = calls.find((call) => call.method === 'POST' && call.path.endsWith('/unlink'));
    expect(unlink?.body).toEqual({ confirmation: 'UNLINK' });
    expect(screen.queryByRole('button', { name: 'Unlink account' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByText('The account was unlinked from its single sign-in identity.')).toBeNull();
  });

  it('is not offered when the account cannot be unlinked or the viewer may not edit it', async () => {
    accountsApi({
      account: linkedCustomerFixture({ can_account_be_unlinked: true }),
      permissions: ['VIEW_ACCOUNT'],
    });
    renderApp(DETAILS_PATH);
    await screen.findByRole('region', { name: 'Linked account' });
    expect(screen.queryByRole('button', { name: 'Unlink account' })).toBeNull();
  });

  it('closes on Escape without unlinking and returns focus to the Unlink button', async () => {
    const { calls } = accountsApi({ account: linkedCustomerFixture({ can_account_be_unlinked: true }) });
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'Unlink account' });
    await user.click(open);
    await screen.findByRole('alertdialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(open));
    expect(calls.some((call) => call.path.endsWith('/unlink'))).toBe(false);
  });
});

describe('deleting an account', () => {
  it('requires the account name, deletes it, says so and returns to the accounts list', async () => {
    const { calls } = accountsApi({
      extra: { [`DELETE ${BASE}/tenants`]: () => noContent() },
    });
    const { router } = renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(within(await sideNavigation()).getByRole('button', { name: 'Delete account' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Delete account' });
    expect(
      within(dialog).getByText(/Every certificate of the account and of its users is revoked\./),
    ).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' });
    await user.type(
      within(dialog).getByLabelText('Type the account name, Example Corp, to confirm'),
      'Example',
    );
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByRole('textbox'), ' Corp');
    await user.click(confirm);

    await waitFor(() => expect(router.state.location.pathname).toBe('/accounts'));
    expect(await screen.findByText('Account deleted.')).toBeTruthy();
    const request = calls.find((call) => call.method === 'DELETE');
    expect(request?.path).toBe(`${BASE}/tenants`);
  });

  it('keeps the dialog open with the reason in our words when deleting fails', async () => {
    accountsApi({
      extra: {
        [`DELETE ${BASE}/tenants`]: () =>
          json(
            { error: { status: 409, message: 'The account still has active certificates.', code: 'inUse' } },
            409,
          ),
      },
    });
    const { router } = renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(within(await sideNavigation()).getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.type(within(dialog).getByRole('textbox'), 'Example Corp');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByText('Error 409')).toBeTruthy();
    expect(within(dialog).getByText('This item is still in use, so it cannot be removed.')).toBeTruthy();
    expect(within(dialog).queryByText('The account still has active certificates.')).toBeNull();
    expect(router.state.location.pathname).toBe(`/accounts/${CUSTOMER_ID}`);
  });

  it('is not offered for the system account, which cannot be edited either', async () => {
    accountsApi({ account: customerFixture({ system_account: true }) });
    renderApp(DETAILS_PATH);
    const nav = await sideNavigation();
    expect(within(nav).queryByRole('link', { name: 'Edit account' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Delete account' })).toBeNull();
  });

  it('is not offered for the viewer’s own primary account', async () => {
    accountsApi({ account: customerFixture({ id: ACCOUNT_ID }) });
    renderApp(`/account/accounts/${ACCOUNT_ID}`);
    const nav = await sideNavigation();
    expect(within(nav).getByRole('link', { name: 'Edit account' })).toBeTruthy();
    expect(within(nav).queryByRole('button', { name: 'Delete account' })).toBeNull();
  });
});

describe('deactivating and reactivating an account', () => {
  const statusRequests = (calls: readonly { method: string; path: string; headers: Headers }[]) =>
    calls.filter((call) => call.method === 'POST' && call.path.startsWith(`${BASE}/tenant/`));

  it('says what happens to the users, deactivates on the version shown and says so', async () => {
    let account = customerFixture({ version: 3 });
    const { calls } = accountsApi({
      account,
      extra: {
        [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () => json(account),
        [`POST ${BASE}/tenant/${CUSTOMER_ID}/deactivate`]: () => {
          account = customerFixture({ active: false, version: 4 });
          return noContent();
        },
      },
    });
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(within(await sideNavigation()).getByRole('button', { name: /^Deactivate account/ }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate account' });
    expect(dialog.textContent).toContain('Its users are signed out at once.');
    expect(statusRequests(calls)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate account' }));

    expect(await screen.findByText('Account deactivated.')).toBeTruthy();
    const [request] = statusRequests(calls);
    expect(request?.path).toBe(`${BASE}/tenant/${CUSTOMER_ID}/deactivate`);
    expect(request?.headers.get('If-Match')).toBe('"3"');
    await waitFor(async () => expect((await statusBlock()).Status).toBe('Inactive'));
    expect(within(await sideNavigation()).getByRole('button', { name: /^Reactivate account/ })).toBeTruthy();
  });

  it('reactivates an inactive account after its own confirmation', async () => {
    const { calls } = accountsApi({
      account: customerFixture({ active: false }),
      extra: { [`POST ${BASE}/tenant/${CUSTOMER_ID}/activate`]: () => noContent() },
    });
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(within(await sideNavigation()).getByRole('button', { name: /^Reactivate account/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reactivate account' });
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate account' }));
    expect(await screen.findByText('Account reactivated.')).toBeTruthy();
    expect(statusRequests(calls).map((call) => call.path)).toEqual([
      `${BASE}/tenant/${CUSTOMER_ID}/activate`,
    ]);
  });

  it('keeps the dialog open with the reason in our words when the server refuses', async () => {
    accountsApi({
      account: customerFixture({ type: 'partner' }),
      extra: {
        [`POST ${BASE}/tenant/${CUSTOMER_ID}/deactivate`]: () =>
          json(
            {
              error: {
                status: 409,
                message: 'The partner account has active accounts; deactivate them first.',
                code: 'partnerHasActiveAccounts',
              },
            },
            409,
          ),
      },
    });
    renderApp(DETAILS_PATH);
    const user = userEvent.setup();
    await user.click(within(await sideNavigation()).getByRole('button', { name: /^Deactivate account/ }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate account' }));
    expect(
      await within(dialog).findByText(
        'This partner account still has active accounts. Deactivate them first.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Account deactivated.')).toBeNull();
  });

  it('is not offered without canManageAccount, for the system account or for the viewer’s own account', async () => {
    for (const [options, path] of [
      [{ permissions: ['VIEW_ACCOUNT', 'VIEW_ORGANIZATION'] as const }, DETAILS_PATH],
      [{ account: customerFixture({ system_account: true }) }, DETAILS_PATH],
      [{ account: customerFixture({ id: ACCOUNT_ID }) }, `/account/accounts/${ACCOUNT_ID}`],
    ] as const) {
      accountsApi(options);
      const view = renderApp(path);
      const nav = await sideNavigation();
      expect(within(nav).queryByRole('button', { name: /^Deactivate account/ })).toBeNull();
      view.unmount();
    }
  });
});
