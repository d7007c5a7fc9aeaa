// @vitest-environment jsdom

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { accountQueryOptions } from '../../../../src/features/accounts/queries.ts';
import { auditLogKeys } from '../../../../src/features/audit-log/queries.ts';
import { today } from '../../../../src/lib/dates.ts';
import { CUSTOMER_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { stubServiceWorker } from '../../lib/offline/offline-support.ts';
import { apiError, json, keepChangesOf, outboxBase, renderApp } from '../../support.tsx';
import {
  accountsApi,
  BASE,
  linkedCustomerFixture,
  noContent,
  PARTNER_ID,
  partnerProfile,
} from './account-details-support.ts';

const EDIT_PATH = `/account/accounts/${CUSTOMER_ID}/edit`;

function field(label: string): HTMLInputElement | HTMLSelectElement {
  return within(screen.getByRole('form')).getByLabelText(label);
}

async function openForm() {
  await screen.findByRole('heading', { name: 'Edit account: Example Corp', level: 1 });
  return userEvent.setup();
}

function setDate(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

function errorOf(label: string): string | null {
  const input = field(label);
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids
    .map((id) => document.getElementById(id))
    .find((node) => node?.className === 'field__error');
  return error?.textContent ?? null;
}

describe('edit account', () => {
  it('shows account-scope users a no-access view without asking for the account', async () => {
    const { calls } = accountsApi({ profile: profileFixture({ access_scope: 'account' }) });
    renderApp(EDIT_PATH);
    expect(await screen.findByRole('heading', { name: 'You cannot edit accounts', level: 1 })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(calls.some((call) => call.path === `${BASE}/tenant/${CUSTOMER_ID}`)).toBe(false);
  });

  it('shows a partner a no-access view for an account under another partner', async () => {
    accountsApi({ profile: partnerProfile(), account: customerFixture({ partner_account_id: null }) });
    renderApp(EDIT_PATH);
    expect(await screen.findByRole('heading', { name: 'You cannot edit this account' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the account details' }).getAttribute('href')).toBe(
      `/account/accounts/${CUSTOMER_ID}`,
    );
  });

  it('shows the 403 page without canManageAccount', async () => {
    accountsApi({ permissions: ['VIEW_ACCOUNT'] });
    renderApp(EDIT_PATH);
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
  });

  it('fills the form from the account with the friendly identifier read-only and Cancel to the accounts table', async () => {
    accountsApi();
    renderApp(EDIT_PATH);
    await openForm();
    expect(field('Account name').value).toBe('Example Corp');
    const identifier = field('Friendly identifier') as HTMLInputElement;
    expect(identifier.value).toBe('example-corp');
    expect(identifier.readOnly).toBe(true);
    expect(field('Service end date').value).toBe('2099-06-30');
    expect(field('Language').value).toBe('de_DE');
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/account/accounts');
  });

  it('opens on the version the server has now, not on one cached before a colleague saved', async () => {
    accountsApi({ account: customerFixture({ name: 'Renamed By A Colleague', version: 2 }) });
    const { queryClient } = renderApp(EDIT_PATH);
    // Cached answers count as fresh for a while, as in the console's own query client.
    queryClient.setDefaultOptions({
      queries: { ...queryClient.getDefaultOptions().queries, staleTime: 30_000 },
    });
    // This browser read the account a moment ago, before the colleague's save.
    queryClient.setQueryData(accountQueryOptions(CUSTOMER_ID).queryKey, customerFixture({ version: 1 }));
    await openForm();
    expect(field('Account name').value).toBe('Renamed By A Colleague');
  });

  it('refuses an empty name, an end date of today and an empty language, and sends nothing', async () => {
    const { calls } = accountsApi();
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('Account name'));
    setDate('Service end date', today().toString());
    await user.selectOptions(field('Language'), '');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(errorOf('Account name')).toBe('This field is required.');
    expect(errorOf('Service end date')).toBe('The end date must be after today.');
    expect(errorOf('Language')).toBe('This field is required.');
    expect(document.activeElement).toBe(field('Account name'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('checks a field when it loses focus: too long, then characters that are not allowed', async () => {
    accountsApi();
    renderApp(EDIT_PATH);
    const user = await openForm();
    const name = field('Account name');
    fireEvent.change(name, { target: { value: 'a'.repeat(257) } });
    await user.click(name);
    await user.tab();
    expect(errorOf('Account name')).toBe('This value is too long.');

    fireEvent.change(name, { target: { value: 'a'.repeat(256) } });
    await user.click(name);
    await user.tab();
    expect(errorOf('Account name')).toBeNull();

    await user.clear(name);
    await user.type(name, 'Example <Corp>');
    await user.tab();
    expect(errorOf('Account name')).toBe('Invalid account name.');
  });

  it('sends PUT tenant with name, language and service period, then says so and opens the details', async () => {
    // As the server does: the saved account comes back as the next version, which starts the form
    // again from it while the save is still finishing.
    let saved = false;
    const { calls } = accountsApi({
      extra: {
        [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => {
          saved = true;
          return noContent();
        },
        [`GET ${BASE}/tenant/${CUSTOMER_ID}`]: () =>
          json(saved ? { ...customerFixture(), name: 'Example Corporation', version: 4 } : customerFixture()),
      },
    });
    const { router } = renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('Account name'));
    await user.type(field('Account name'), '  Example Corporation ');
    setDate('Service end date', '2100-01-31');
    await user.selectOptions(field('Language'), 'fr_FR');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/accounts/${CUSTOMER_ID}`));
    expect(await screen.findByText('Account edited.')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(`${BASE}/tenant/${CUSTOMER_ID}`);
    expect(put?.body).toEqual({
      name: 'Example Corporation',
      locale: 'fr_FR',
      service_period: { from: '2026-01-15', to: '2100-01-31' },
    });
    // Made on version 3 of the account: someone else's change since then is refused, not overwritten.
    expect(put?.headers.get('If-Match')).toBe('"3"');
  });

  it('sends the account as the form started as the base of its change, for the outbox', async () => {
    const { calls } = accountsApi({ extra: { [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => noContent() } });
    renderApp(EDIT_PATH);
    const user = await openForm();
    // The page holds a live storage key of the user (given after the secure layout started), and a
    // worker controls it.
    const restoreWorker = stubServiceWorker([]);
    await keepChangesOf(profileFixture().id);
    try {
      await user.selectOptions(field('Language'), 'fr_FR');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    } finally {
      restoreWorker();
    }
    expect(outboxBase(calls.find((call) => call.method === 'PUT')?.headers)).toEqual({
      name: 'Example Corp',
      locale: 'de_DE',
      service_period: { from: '2026-01-15', to: '2099-06-30' },
    });
  });

  it('makes the audit log stale with an online edit, as the same edit replayed from the outbox does', async () => {
    accountsApi({ extra: { [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => noContent() } });
    const { queryClient } = renderApp(EDIT_PATH);
    const user = await openForm();
    // The audit log was read earlier in the visit; the edit is recorded there by the server.
    const auditLogList = [...auditLogKeys.lists(), { page: 1 }];
    queryClient.setQueryData(auditLogList, { items: [], total: 0 });
    await user.type(field('Account name'), ' Group');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account edited.')).toBeTruthy();
    await waitFor(() => expect(queryClient.getQueryState(auditLogList)?.isInvalidated).toBe(true));
  });

  it('lets an expired account be renamed while it keeps its past end date', async () => {
    const { calls } = accountsApi({
      account: customerFixture({ active: false, service_period: { from: '2024-01-01', to: '2025-03-31' } }),
      extra: { [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => noContent() },
    });
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.type(field('Account name'), ' Archive');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      name: 'Example Corp Archive',
      service_period: { from: '2024-01-01', to: '2025-03-31' },
    });
  });

  it('says the System Account cannot be edited', async () => {
    accountsApi({ account: customerFixture({ system_account: true }) });
    renderApp(EDIT_PATH);
    expect(await screen.findByRole('heading', { name: 'The System Account cannot be edited' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows a refused save as “Error 403” in our words and keeps what was typed', async () => {
    accountsApi({
      extra: {
        [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => apiError(403, 'You may not change this account.'),
      },
    });
    const { router } = renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('Account name'));
    await user.type(field('Account name'), 'Renamed Corp');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error 403')).toBeTruthy();
    expect(within(alert).getByText('You do not have permission to do this.')).toBeTruthy();
    expect(within(alert).queryByText('You may not change this account.')).toBeNull();
    expect(field('Account name').value).toBe('Renamed Corp');
    expect(router.state.location.pathname).toBe(`/accounts/${CUSTOMER_ID}/edit`);
  });

  it('marks the field a 400 answer names, by its code, and moves there', async () => {
    accountsApi({
      extra: {
        [`PUT ${BASE}/tenant/${CUSTOMER_ID}`]: () => fieldErrorAnswer(400, 'name', 'invalidAccountName'),
      },
    });
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf('Account name')).toBe('Invalid account name.'));
    expect(document.activeElement).toBe(field('Account name'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells that a linked account is edited at its identity product, with every field disabled and no Save', async () => {
    accountsApi({ account: linkedCustomerFixture() });
    renderApp(EDIT_PATH);
    await openForm();
    expect(screen.getByText('This account is managed by OneLogin. Edit it there.')).toBeTruthy();
    const link = screen.getByRole('link', { name: /Open the account in its identity product/ });
    expect(link.getAttribute('href')).toBe('https://identity.example.com/accounts/4711');
    for (const label of ['Account name', 'Friendly identifier', 'Service end date', 'Language']) {
      expect(field(label).disabled).toBe(true);
    }
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('shows a partner a no-access view for its own partner account, which the server refuses too', async () => {
    const { calls } = accountsApi({
      profile: partnerProfile(),
      account: customerFixture({ id: PARTNER_ID, type: 'partner' }),
    });
    renderApp(`/account/accounts/${PARTNER_ID}/edit`);
    expect(await screen.findByRole('heading', { name: 'You cannot edit this account' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});
