// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ID, ORGANIZATION_ID, OTHER_ACCOUNT_ID, organizationFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { BASE, MANAGER, noContent, organizationsApi, READER, tenantFixture } from './organizations-api.ts';

const CREATED_ID = '0d4c1b2a-3e5f-4a6b-8c7d-9e0f1a2b3c4d';

async function fillRequiredFields(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Example Labs');
  await user.type(screen.getByRole('textbox', { name: 'Address' }), '1 Main Street');
  await user.type(screen.getByRole('textbox', { name: 'City' }), 'Springfield');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'US');
}

describe('organization form', () => {
  it('offers every selectable country by name, never CU, IR, SY or KP', async () => {
    organizationsApi(MANAGER);
    renderApp('/account/ca/organizations/create');
    const select = await screen.findByRole('combobox', { name: 'Country' });
    const options = within(select).getAllByRole('option');
    const values = options.map((option) => option.getAttribute('value'));
    expect(values).toContain('DE');
    for (const excluded of ['CU', 'IR', 'SY', 'KP']) expect(values).not.toContain(excluded);
    expect(options[0]?.textContent).toBe('Choose a country');
    expect(within(select).getByRole('option', { name: 'Germany' }).getAttribute('value')).toBe('DE');
    const names = options.slice(1).map((option) => option.textContent ?? '');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('creates the organization in the selected account and opens it with a notice', async () => {
    const created = organizationFixture({
      id: CREATED_ID,
      name: 'Example Labs',
      address: '1 Main Street',
      city: 'Springfield',
      country: 'US',
      zip_code: '',
      phone: '',
      contacts_count: 0,
    });
    const { calls } = organizationsApi(MANAGER, {
      [`POST ${BASE}/organizations`]: () => json(created, 201),
      [`GET ${BASE}/organizations/${CREATED_ID}/contacts`]: () => json({ items: [], total: 0 }),
    });
    const { router } = renderApp('/account/ca/organizations/create');
    expect(await screen.findByText('Account: System Account')).toBeTruthy();
    const user = userEvent.setup();
    await fillRequiredFields(user);
    await user.type(screen.getByRole('textbox', { name: 'Phone (optional)' }), ' +1 555 0100 ');
    await user.click(screen.getByRole('button', { name: 'Create organization' }));

    expect(await screen.findByText('Organization created.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ca/organizations/${CREATED_ID}`));
    expect(await screen.findByRole('heading', { name: 'Example Labs', level: 1 })).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST' && call.path === `${BASE}/organizations`);
    expect(post?.body).toEqual({
      name: 'Example Labs',
      address: '1 Main Street',
      address2: '',
      city: 'Springfield',
      state: '',
      zip_code: '',
      country: 'US',
      phone: '+1 555 0100',
      account_id: ACCOUNT_ID,
    });
  });

  it('creates the organization in the account the list was opened for', async () => {
    const { calls } = organizationsApi(MANAGER, {
      [`GET ${BASE}/tenant/${OTHER_ACCOUNT_ID}`]: () => json(tenantFixture(OTHER_ACCOUNT_ID, 'Example Corp')),
      [`POST ${BASE}/organizations`]: () => apiError(500, 'Database unavailable.'),
    });
    renderApp(`/account/ca/organizations/create?accountId=${OTHER_ACCOUNT_ID}`);
    expect(await screen.findByText('Account: Example Corp')).toBeTruthy();
    const user = userEvent.setup();
    await fillRequiredFields(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Something went wrong on the server. Try again later.')).toBeTruthy();
    expect(within(alert).queryByText('Database unavailable.')).toBeNull();
    const post = calls.find((call) => call.method === 'POST' && call.path === `${BASE}/organizations`);
    expect(post?.body).toMatchObject({ account_id: OTHER_ACCOUNT_ID });
  });

  it('names every missing required field on submit and sends nothing', async () => {
    const { calls } = organizationsApi(MANAGER);
    renderApp('/account/ca/organizations/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create organization' }));
    for (const name of ['Name', 'Address', 'City']) {
      const input = screen.getByRole('textbox', { name });
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(input.getAttribute('aria-describedby')).toBeTruthy();
      expect(screen.getByRole('textbox', { name }).closest('.field')?.textContent).toContain(
        'This field is required.',
      );
    }
    expect(screen.getByRole('combobox', { name: 'Country' }).closest('.field')?.textContent).toContain(
      'This field is required.',
    );
    expect(screen.getByRole('textbox', { name: 'Address 2 (optional)' }).getAttribute('aria-invalid')).toBe(
      'false',
    );
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(calls.some((call) => call.path === `${BASE}/organizations` && call.method === 'POST')).toBe(false);
  });

  it('checks a field when the user leaves it, and clears the message once it is fixed', async () => {
    organizationsApi(MANAGER);
    renderApp('/account/ca/organizations/create');
    const user = userEvent.setup();
    const phone = await screen.findByRole('textbox', { name: 'Phone (optional)' });
    await user.type(phone, 'call me');
    expect(phone.getAttribute('aria-invalid')).toBe('false');
    await user.tab();
    expect(phone.closest('.field')?.textContent).toContain('Invalid phone number.');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    await user.clear(phone);
    await user.type(phone, '+49 30 1234567');
    expect(phone.getAttribute('aria-invalid')).toBe('false');

    const zip = screen.getByRole('textbox', { name: 'Zip code (optional)' });
    await user.type(zip, '10115!');
    await user.tab();
    expect(zip.closest('.field')?.textContent).toContain('This value is not allowed.');
  });

  it('leaves an untouched field alone when the user tabs through it', async () => {
    organizationsApi(MANAGER);
    renderApp('/account/ca/organizations/create');
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.click(name);
    await user.tab();
    expect(name.getAttribute('aria-invalid')).toBe('false');
  });

  it('shows a refusal that names a field under that field, in the UI language when known', async () => {
    organizationsApi(MANAGER, {
      [`POST ${BASE}/organizations`]: () => fieldErrorAnswer(400, 'country', 'invalidCountry'),
    });
    renderApp('/account/ca/organizations/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('textbox', { name: 'Name' }));
    await fillRequiredFields(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const country = screen.getByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country.getAttribute('aria-invalid')).toBe('true'));
    expect(country.closest('.field')?.textContent).toContain('Choose a country from the list.');
    expect(document.activeElement).toBe(country);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a value the server says is in use under its field, never in the server’s words', async () => {
    organizationsApi(MANAGER, {
      [`POST ${BASE}/organizations`]: () => fieldErrorAnswer(409, 'name', 'inUse'),
    });
    renderApp('/account/ca/organizations/create');
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Name' });
    await fillRequiredFields(user);
    await user.click(screen.getByRole('button', { name: 'Create organization' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() =>
      expect(name.closest('.field')?.textContent).toContain('This value is already in use.'),
    );
    expect(screen.queryByText(/server wording/)).toBeNull();
  });

  it('goes back to the list on Cancel, at step 1 of a create page', async () => {
    organizationsApi(MANAGER);
    const { router } = renderApp(`/account/ca/organizations/create?accountId=${ACCOUNT_ID}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ca/organizations'));
    expect(router.state.location.search).toEqual({ accountId: ACCOUNT_ID });
  });

  it('edits the organization with PUT and returns to it with a notice', async () => {
    let organization = organizationFixture();
    const { calls } = organizationsApi(MANAGER, {
      [`GET ${BASE}/organizations/${ORGANIZATION_ID}`]: () => json(organization),
      [`PUT ${BASE}/organizations/${ORGANIZATION_ID}`]: ({ body }) => {
        organization = { ...organization, ...(body as object), version: 2 };
        return noContent();
      },
    });
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/edit`);
    const city = await screen.findByRole('textbox', { name: 'City' });
    expect((city as HTMLInputElement).value).toBe('Berlin');
    expect((screen.getByRole('combobox', { name: 'Country' }) as HTMLSelectElement).value).toBe('DE');
    const user = userEvent.setup();
    await user.clear(city);
    await user.type(city, 'Hamburg');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Organization edited.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ca/organizations/${ORGANIZATION_ID}`));
    expect(await screen.findByText('Hamburg')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'Acme Trust GmbH',
      address: 'Hauptstraße 1',
      address2: '',
      city: 'Hamburg',
      state: '',
      zip_code: '10115',
      country: 'DE',
      phone: '+49 30 1234567',
    });
  });

  it('goes back to the organization from its edit page', async () => {
    organizationsApi(MANAGER);
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/edit`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ca/organizations/${ORGANIZATION_ID}`));
  });

  it('shows the 403 page on the create and edit pages to a reader', async () => {
    organizationsApi(READER);
    const { router } = renderApp('/account/ca/organizations/create');
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    await router.navigate({ to: '/ca/organizations/$id/edit', params: { id: ORGANIZATION_ID } });
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });
});
