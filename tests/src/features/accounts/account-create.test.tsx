// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { today } from '../../../../src/lib/dates.ts';
import { CUSTOMER_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { accountsApi, BASE, PARTNER_ID, partnerProfile } from './account-details-support.ts';

function form() {
  return screen.getByRole('form');
}

function field(label: string | RegExp): HTMLInputElement | HTMLSelectElement {
  return within(form()).getByLabelText(label);
}

function errorOf(label: string): string | null {
  const ids = field(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids
    .map((id) => document.getElementById(id))
    .find((node) => node?.className === 'field__error');
  return error?.textContent ?? null;
}

const PASSWORD = 'Correct-Horse-42';

/** Everything a valid request needs; the start date keeps its default of today. */
async function fillValidForm(user: UserEvent) {
  await user.type(field('Account name'), 'Example Corp');
  fireEvent.change(field('Service end date'), { target: { value: '2099-12-31' } });
  await user.type(field('First name'), 'Grace');
  await user.type(field('Last name'), 'Hopper');
  await user.type(field('Email'), 'grace@example.com');
  await user.type(field('Username'), 'grace');
  await user.type(field('Password'), PASSWORD);
  await user.type(field('Repeat password'), PASSWORD);
}

function partnerList() {
  return json({
    items: [
      customerFixture({ id: PARTNER_ID, name: 'Partner Ltd', display_name: 'Partner Ltd', type: 'partner' }),
    ],
    total: 1,
  });
}

describe('create account', () => {
  it('lets a system administrator place a standard account under a partner, and sends the whole request', async () => {
    const partnerQueries: URL[] = [];
    const { calls } = accountsApi({
      extra: {
        [`GET ${BASE}/tenants`]: ({ url }) => {
          if (url.searchParams.get('type') === 'partner') partnerQueries.push(url);
          return partnerList();
        },
        [`POST ${BASE}/tenants`]: () => json(customerFixture(), 201),
      },
    });
    const { router } = renderApp('/account/accounts/create-account');
    expect(await screen.findByRole('heading', { name: 'Create account', level: 1 })).toBeTruthy();
    const user = userEvent.setup();
    expect(field('Service start date').value).toBe(today().toString());
    expect(field('Language').value).toBe('en_US');
    await fillValidForm(user);
    const partner = field('Partner') as HTMLSelectElement;
    await waitFor(() => expect(partner.options).toHaveLength(2));
    expect(partner.options[0]?.textContent).toBe('None — directly under the platform');
    await user.selectOptions(partner, PARTNER_ID);
    await user.type(field(/Friendly identifier/), 'example-corp');
    await user.click(within(form()).getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/accounts/${CUSTOMER_ID}`));
    expect(await screen.findByText('Account created.')).toBeTruthy();
    expect(Object.fromEntries(partnerQueries[0]?.searchParams ?? [])).toEqual({
      type: 'partner',
      active: 'true',
      limit: '99999',
      sort: 'name:asc',
    });
    expect(calls.find((call) => call.method === 'POST' && call.path === `${BASE}/tenants`)?.body).toEqual({
      name: 'Example Corp',
      locale: 'en_US',
      type: 'standard',
      partner_account_id: PARTNER_ID,
      friendly_identifier: 'example-corp',
      service_period: { from: today().toString(), to: '2099-12-31' },
      administrator: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        user_name: 'grace',
        password: PASSWORD,
        repeatedPassword: PASSWORD,
      },
    });
  });

  it('gives a partner no partner choice and creates a standard account under it', async () => {
    const { calls } = accountsApi({
      profile: partnerProfile(),
      extra: {
        [`POST ${BASE}/tenants`]: () => json(customerFixture({ partner_account_id: PARTNER_ID }), 201),
      },
    });
    renderApp('/account/accounts/create-account');
    await screen.findByRole('heading', { name: 'Create account' });
    expect(screen.getByText('The new account is created under your partner account.')).toBeTruthy();
    expect(within(form()).queryByLabelText('Partner')).toBeNull();
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(within(form()).getByRole('button', { name: 'Create account' }));

    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.path === `${BASE}/tenants`)).toBe(true),
    );
    const body = calls.find((call) => call.method === 'POST' && call.path === `${BASE}/tenants`)?.body;
    expect(body).toMatchObject({ type: 'standard' });
    expect(body).not.toHaveProperty('partner_account_id');
    expect(body).not.toHaveProperty('friendly_identifier');
  });

  it('creates a partner account for system scope', async () => {
    const { calls } = accountsApi({
      extra: { [`POST ${BASE}/tenants`]: () => json(customerFixture({ type: 'partner' }), 201) },
    });
    renderApp('/account/accounts/create-partner-account');
    expect(await screen.findByRole('heading', { name: 'Create partner account', level: 1 })).toBeTruthy();
    expect(within(form()).queryByLabelText('Partner')).toBeNull();
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(within(form()).getByRole('button', { name: 'Create partner account' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.path === `${BASE}/tenants`)).toBe(true),
    );
    expect(
      calls.find((call) => call.method === 'POST' && call.path === `${BASE}/tenants`)?.body,
    ).toMatchObject({
      type: 'partner',
    });
  });

  it('shows the 403 page to a partner on create-partner-account and to account scope on create-account', async () => {
    accountsApi({ profile: partnerProfile() });
    const first = renderApp('/account/accounts/create-partner-account');
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    first.unmount();

    accountsApi({ profile: profileFixture({ access_scope: 'account' }) });
    renderApp('/account/accounts/create-account');
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
  });

  it('is a page of its own, not an account called “create-account”', async () => {
    const { calls } = accountsApi();
    const { router } = renderApp('/account/accounts/create-account');
    await screen.findByRole('heading', { name: 'Create account' });
    expect(router.state.matches.at(-1)?.routeId).toBe('/_secure/accounts/create-account');
    expect(calls.some((call) => call.path === `${BASE}/tenant/create-account`)).toBe(false);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Create account').getAttribute('aria-current')).toBe('page');
  });

  it('checks the fields and the passwords before sending anything', async () => {
    const { calls } = accountsApi();
    renderApp('/account/accounts/create-account');
    await screen.findByRole('heading', { name: 'Create account' });
    const user = userEvent.setup();
    await user.type(field('Password'), 'short');
    await user.type(field('Repeat password'), 'Correct-Horse-43');
    await user.tab();
    expect(errorOf('Repeat password')).toBe('The passwords do not match.');
    fireEvent.change(field('Service end date'), { target: { value: today().toString() } });
    await user.click(within(form()).getByRole('button', { name: 'Create account' }));

    expect(errorOf('Account name')).toBe('This field is required.');
    expect(errorOf('Service end date')).toBe('The end date must be after today.');
    expect(errorOf('Username')).toBe('Username is required.');
    expect(errorOf('Password')).toBe('The password must be at least 12 characters long.');
    expect(calls.some((call) => call.path === `${BASE}/tenants` && call.method === 'POST')).toBe(false);
  });

  it('shows a conflict under the field the server names', async () => {
    accountsApi({
      extra: {
        [`GET ${BASE}/tenants`]: () => partnerList(),
        [`POST ${BASE}/tenants`]: () => fieldErrorAnswer(409, 'administrator.user_name', 'inUse'),
      },
    });
    renderApp('/account/accounts/create-account');
    await screen.findByRole('heading', { name: 'Create account' });
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(within(form()).getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(errorOf('Username')).toBe('This user name is already taken.'));
    expect(document.activeElement).toBe(field('Username'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field('Password').value).toBe(PASSWORD);
  });

  it('shows a conflict that names no field in an error alert, in our words', async () => {
    accountsApi({
      extra: {
        [`GET ${BASE}/tenants`]: () => partnerList(),
        [`POST ${BASE}/tenants`]: () => apiError(409, 'The licence allows no more accounts.'),
      },
    });
    renderApp('/account/accounts/create-account');
    await screen.findByRole('heading', { name: 'Create account' });
    const user = userEvent.setup();
    await fillValidForm(user);
    await user.click(within(form()).getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error 409')).toBeTruthy();
    expect(
      within(alert).getByText(
        'This conflicts with the current state of the item. Reload the page and try again.',
      ),
    ).toBeTruthy();
    expect(within(alert).queryByText(/licence allows/)).toBeNull();
  });
});
