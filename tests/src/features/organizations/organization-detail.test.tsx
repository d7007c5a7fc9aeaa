// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ORGANIZATION_ID, OTHER_ACCOUNT_ID, organizationFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { BASE, CONTACT_ID, MANAGER, noContent, organizationsApi, READER } from './organizations-api.ts';

const ORGANIZATION_PATH = `${BASE}/organizations/${ORGANIZATION_ID}`;

describe('organization details', () => {
  it('shows the organization’s fields and its contacts', async () => {
    organizationsApi(READER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    expect(await screen.findByRole('heading', { name: 'Acme Trust GmbH', level: 1 })).toBeTruthy();
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    const values = screen.getAllByRole('definition').map((value) => value.textContent);
    expect(Object.fromEntries(terms.map((term, index) => [term, values[index]]))).toEqual({
      Address: 'Hauptstraße 1',
      'Address 2': 'Not given',
      City: 'Berlin',
      'State or province': 'Not given',
      'Zip code': '10115',
      Country: 'Germany',
      Phone: '+49 30 1234567',
    });

    const contacts = screen.getByRole('table', { name: 'Contacts' });
    const row = within(contacts).getByRole('row', { name: /Grace Hopper/ });
    expect(within(row).getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe(
      `/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`,
    );
    expect(within(row).getByText('Technical')).toBeTruthy();
    expect(within(row).getByText('Security officer')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'grace@example.com' }).getAttribute('href')).toBe(
      'mailto:grace@example.com',
    );
  });

  it('hides edit, delete and add contact from readers', async () => {
    organizationsApi(READER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    await screen.findByRole('heading', { name: 'Acme Trust GmbH', level: 1 });
    expect(screen.queryByRole('link', { name: 'Edit organization' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete organization' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add contact' })).toBeNull();
  });

  it('offers managers to edit, delete and add contacts', async () => {
    organizationsApi(MANAGER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const edit = await screen.findByRole('link', { name: 'Edit organization' });
    expect(edit.getAttribute('href')).toBe(`/account/ca/organizations/${ORGANIZATION_ID}/edit`);
    expect(screen.getByRole('link', { name: 'Add contact' }).getAttribute('href')).toBe(
      `/account/ca/organizations/${ORGANIZATION_ID}/create-contact`,
    );
    expect(screen.getByRole('button', { name: 'Delete organization' })).toBeTruthy();
  });

  it('deletes only after confirmation, then returns to the list with a notice', async () => {
    const { calls } = organizationsApi(MANAGER, { [`DELETE ${ORGANIZATION_PATH}`]: () => noContent() });
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete organization' });
    expect(dialog.textContent).toContain(
      'The organization Acme Trust GmbH and all its contacts will be deleted. This cannot be undone.',
    );
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    const readsBefore = calls.filter((call) => call.path === ORGANIZATION_PATH).length;

    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    expect(await screen.findByText('Organization deleted.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/ca/organizations'));
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      ORGANIZATION_PATH,
    ]);
    // What was deleted is not asked for again on the way out.
    expect(calls.filter((call) => call.path === ORGANIZATION_PATH && call.method === 'GET')).toHaveLength(
      readsBefore,
    );
  });

  it('keeps the organization when the confirmation is cancelled', async () => {
    const { calls } = organizationsApi(MANAGER);
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    expect(router.state.location.pathname).toBe(`/ca/organizations/${ORGANIZATION_ID}`);
  });

  it('shows a failed deletion in the dialog', async () => {
    organizationsApi(MANAGER, {
      [`DELETE ${ORGANIZATION_PATH}`]: () =>
        apiError(403, 'You do not have permission to manage organizations.'),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    // Our sentence for the status, not the server's English (overview §8).
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'You do not have permission to do this.',
    );
  });

  it('returns to the list of the organization’s own account after deleting it', async () => {
    organizationsApi(MANAGER, {
      [`GET ${ORGANIZATION_PATH}`]: () => json(organizationFixture({ account_id: OTHER_ACCOUNT_ID })),
      [`DELETE ${ORGANIZATION_PATH}`]: () => noContent(),
    });
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete organization' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete organization' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/ca/organizations'));
    expect(router.state.location.search).toEqual({ accountId: OTHER_ACCOUNT_ID });
  });

  it('says an organization out of reach is not found', async () => {
    organizationsApi(READER, {
      [`GET ${ORGANIZATION_PATH}`]: () => apiError(404, 'Organization not found.'),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    expect(await screen.findByRole('heading', { name: 'Not found', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to organizations' }).getAttribute('href')).toBe(
      '/account/ca/organizations',
    );
  });

  it('says in our words that an organization could not be loaded, never the server’s slip', async () => {
    organizationsApi(READER, {
      [`GET ${ORGANIZATION_PATH}`]: () => apiError(409, "Cannot read property 'x' of null"),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    expect(
      await screen.findByText(
        'This conflicts with the current state of the item. Reload the page and try again.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/Cannot read property/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows the 403 page to a user who may not view organizations', async () => {
    organizationsApi(['VIEW_ACCOUNT'], {
      [`GET ${ORGANIZATION_PATH}`]: () => apiError(403, 'You do not have permission to view organizations.'),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}`);
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Acme Trust GmbH' })).toBeNull();
  });
});
