// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../../contract/schemas/organizations.ts';
import { contactQueryOptions } from '../../../../src/features/organizations/queries.ts';
import { ORGANIZATION_ID } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { json, renderApp } from '../../support.tsx';
import {
  BASE,
  CONTACT_ID,
  contactFixture,
  MANAGER,
  noContent,
  organizationsApi,
  READER,
} from './organizations-api.ts';

const CONTACTS_PATH = `${BASE}/organizations/${ORGANIZATION_ID}/contacts`;
const CONTACT_PATH = `${CONTACTS_PATH}/${CONTACT_ID}`;

describe('contacts of an organization', () => {
  it('adds an administrative contact and returns to the organization with a notice', async () => {
    const created = contactFixture({
      id: 'a1b2c3d4-0000-4000-8000-000000000002',
      first_name: 'Ada',
      last_name: 'Byron',
      email: 'ada@example.com',
      title: '',
      type: 'administrative',
    });
    const { calls } = organizationsApi(MANAGER, {
      [`POST ${CONTACTS_PATH}`]: () => json(created, 201),
    });
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/create-contact`);
    expect(await screen.findByText('Organization: Acme Trust GmbH')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Byron');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    const type = screen.getByRole('group', { name: 'Type' });
    await user.click(within(type).getByRole('radio', { name: 'Administrative' }));
    await user.click(screen.getByRole('button', { name: 'Add contact' }));

    expect(await screen.findByText('Contact created.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ca/organizations/${ORGANIZATION_ID}`));
    expect(calls.find((call) => call.method === 'POST' && call.path === CONTACTS_PATH)?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Byron',
      email: 'ada@example.com',
      phone: '',
      title: '',
      type: 'administrative',
    });
  });

  it('asks for the type and a valid email before sending anything', async () => {
    const { calls } = organizationsApi(MANAGER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/create-contact`);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Byron');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@');
    await user.click(screen.getByRole('button', { name: 'Add contact' }));

    const type = screen.getByRole('group', { name: 'Type' });
    expect(type.textContent).toContain('This field is required.');
    expect(type.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Email' }).closest('.field')?.textContent).toContain(
      'Invalid email.',
    );
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
    await user.click(within(type).getByRole('radio', { name: 'Technical' }));
    expect(type.textContent).not.toContain('This field is required.');
    expect(calls.some((call) => call.method === 'POST' && call.path === CONTACTS_PATH)).toBe(false);
  });

  it('shows one contact with its fields', async () => {
    organizationsApi(READER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Acme Trust GmbH' }).getAttribute('href')).toBe(
      `/account/ca/organizations/${ORGANIZATION_ID}`,
    );
    expect(screen.getByRole('link', { name: 'grace@example.com' }).getAttribute('href')).toBe(
      'mailto:grace@example.com',
    );
    expect(screen.getByText('Technical')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit contact' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete contact' })).toBeNull();
  });

  it('edits a contact in place with PUT and shows the saved values with a notice', async () => {
    let contact: Contact = contactFixture();
    const { calls } = organizationsApi(MANAGER, {
      [`GET ${CONTACT_PATH}`]: () => json(contact),
      [`PUT ${CONTACT_PATH}`]: ({ body }) => {
        contact = { ...contact, ...(body as object), version: 2 };
        return noContent();
      },
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit contact' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Edit contact' }));
    const type = screen.getByRole('group', { name: 'Type' });
    expect((within(type).getByRole('radio', { name: 'Technical' }) as HTMLInputElement).checked).toBe(true);
    const title = screen.getByRole('textbox', { name: 'Title (optional)' });
    await user.clear(title);
    await user.type(title, 'Chief information security officer');
    await user.click(within(type).getByRole('radio', { name: 'Administrative' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Contact updated.')).toBeTruthy();
    expect(await screen.findByText('Chief information security officer')).toBeTruthy();
    expect(screen.getByText('Administrative')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit contact' }));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone: '',
      title: 'Chief information security officer',
      type: 'administrative',
    });
  });

  it('shows a refused edit under the field the server names', async () => {
    organizationsApi(MANAGER, {
      [`PUT ${CONTACT_PATH}`]: () => fieldErrorAnswer(400, 'email', 'invalidEmail'),
    });
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit contact' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const email = screen.getByRole('textbox', { name: 'Email' });
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(email.closest('.field')?.textContent).toContain('Invalid email.');
  });

  it('deletes a contact after confirmation and returns to the organization', async () => {
    const { calls } = organizationsApi(MANAGER, { [`DELETE ${CONTACT_PATH}`]: () => noContent() });
    const { router } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete contact' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete contact' });
    expect(dialog.textContent).toContain('The contact Grace Hopper will be deleted. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete contact' }));

    expect(await screen.findByText('Contact deleted.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ca/organizations/${ORGANIZATION_ID}`));
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([CONTACT_PATH]);
  });

  it('shows the 403 page on the add-contact page to a reader', async () => {
    organizationsApi(READER);
    renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/create-contact`);
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
  });

  it('opens the editor on the version the server has now, not on one cached before a colleague saved', async () => {
    organizationsApi(MANAGER, {
      [`GET ${CONTACT_PATH}`]: () => json(contactFixture({ first_name: 'Renamed', version: 2 })),
    });
    const { queryClient } = renderApp(`/account/ca/organizations/${ORGANIZATION_ID}/${CONTACT_ID}`);
    // Cached answers count as fresh for a while, as in the console's own query client.
    queryClient.setDefaultOptions({
      queries: { ...queryClient.getDefaultOptions().queries, staleTime: 30_000 },
    });
    // This browser read the contact a moment ago, before the colleague's save.
    queryClient.setQueryData(
      contactQueryOptions(ORGANIZATION_ID, CONTACT_ID).queryKey,
      contactFixture({ first_name: 'Before', version: 1 }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit contact' }));
    const firstName = (await screen.findByRole('textbox', { name: 'First name' })) as HTMLInputElement;
    expect(firstName.value).toBe('Renamed');
  });
});
