// @vitest-environment jsdom

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { i18n } from '../../../../src/lib/i18n.ts';
import { STORAGE_KEYS } from '../../../../src/lib/storage-keys.ts';
import { profileFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { activateEnglish, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const BASE = '/account/ui-api/v1';
const EDIT_PATH = '/account/profile/edit';

type Handlers = Parameters<typeof mockApi>[0];

function profileApi(profile: Profile, extra: Handlers = {}) {
  return mockApi({ ...signedInHandlers(profile, []), ...extra });
}

const noContent = () => new Response(null, { status: 204, headers: { ETag: '"8"' } });

function form() {
  return within(screen.getByRole('form'));
}

function field(label: string): HTMLInputElement | HTMLSelectElement {
  return form().getByLabelText(label);
}

function errorOf(label: string): string | null {
  const ids = field(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids
    .map((id) => document.getElementById(id))
    .find((node) => node?.className === 'field__error');
  return error?.textContent ?? null;
}

async function openForm() {
  await screen.findByRole('heading', { name: 'Edit profile', level: 1 });
  return userEvent.setup();
}

afterEach(() => {
  localStorage.clear();
  activateEnglish();
});

describe('edit own profile', () => {
  it('fills the fields from the profile; SAML and OIDC user names read-only and only when present; no aliases below system scope', async () => {
    profileApi(
      profileFixture({
        access_scope: 'account',
        phone: '+49301234567',
        saml_username: 'ada@idp.example',
      }),
    );
    renderApp(EDIT_PATH);
    await openForm();
    expect(field('First name').value).toBe('Ada');
    expect(field('Last name').value).toBe('Lovelace');
    expect(field('Username').value).toBe('ada');
    expect(field('Email').value).toBe('ada@example.com');
    expect(field('Phone').value).toBe('+49301234567');
    expect(field('Language').value).toBe('en_US');
    const saml = field('SAML username') as HTMLInputElement;
    expect(saml.value).toBe('ada@idp.example');
    expect(saml.readOnly).toBe(true);
    expect(form().queryByLabelText('OIDC username')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Aliases' })).toBeNull();
  });

  it('refuses empty names and an e-mail that is not one, and sends nothing', async () => {
    const { calls } = profileApi(profileFixture());
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('First name'));
    await user.clear(field('Last name'));
    await user.clear(field('Email'));
    await user.type(field('Email'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(errorOf('First name')).toBe('This field is required.');
    expect(errorOf('Last name')).toBe('This field is required.');
    expect(errorOf('Email')).toBe('Invalid email.');
    expect(document.activeElement).toBe(field('First name'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('says “Username exists” when a taken user name is left, and does not send it', async () => {
    const { calls } = profileApi(profileFixture(), {
      [`GET ${BASE}/user/exists`]: ({ url }) =>
        json({ exists: url.searchParams.get('user_name') === 'grace' }),
    });
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('Username'));
    await user.type(field('Username'), 'grace');
    await user.tab();
    await waitFor(() => expect(errorOf('Username')).toBe('Username exists.'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(field('Username'));
    await user.type(field('Username'), 'grace2');
    await user.tab();
    await waitFor(() => expect(errorOf('Username')).toBeNull());
  });

  it('shows the server’s 409 inUse under the user name as “Username exists”', async () => {
    profileApi(profileFixture(), {
      [`GET ${BASE}/user/exists`]: () => json({ exists: false }),
      [`PUT ${BASE}/user/${profileFixture().id}`]: () => fieldErrorAnswer(409, 'user_name', 'inUse'),
    });
    renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('Username'));
    await user.type(field('Username'), 'raced');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(errorOf('Username')).toBe('Username exists.'));
    expect(field('Username').value).toBe('raced');
  });

  it('sends PUT user/{id} on the profile’s version with a normalised phone, stores and activates the language, and opens the profile', async () => {
    const profile = profileFixture({ access_scope: 'account', version: 7 });
    const { calls } = profileApi(profile, {
      [`GET ${BASE}/user/exists`]: () => json({ exists: false }),
      [`PUT ${BASE}/user/${profile.id}`]: () => noContent(),
    });
    const { router } = renderApp(EDIT_PATH);
    const user = await openForm();
    await user.clear(field('First name'));
    await user.type(field('First name'), 'Augusta');
    await user.type(field('Phone'), '0049 (30) 123-45.67');
    await user.selectOptions(field('Language'), 'de_DE');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(`${BASE}/user/${profile.id}`);
    expect(put?.headers.get('If-Match')).toBe('"7"');
    expect(put?.body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
      user_name: 'ada',
      email: 'ada@example.com',
      phone: '+49301234567',
      locale: 'de_DE',
    });
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('de_DE');
    expect(i18n.locale).toBe('de');
    expect(await screen.findByText('Benutzer aktualisiert.')).toBeTruthy();
  });

  it('edits a system user’s aliases as rows: checks each, refuses a repeated identifier, adds and removes, and sends the map', async () => {
    const profile = profileFixture({ aliases: { employee_no: '4711', old: 'gone' } });
    const { calls } = profileApi(profile, {
      [`PUT ${BASE}/user/${profile.id}`]: () => noContent(),
    });
    renderApp(EDIT_PATH);
    const user = await openForm();
    const aliases = within(screen.getByRole('group', { name: 'Aliases' }));
    expect((aliases.getByLabelText('Identifier 1') as HTMLInputElement).value).toBe('employee_no');
    expect((aliases.getByLabelText('Value 2') as HTMLInputElement).value).toBe('gone');

    await user.click(aliases.getByRole('button', { name: 'Remove alias 2' }));
    expect(aliases.queryByLabelText('Identifier 2')).toBeNull();
    await user.click(aliases.getByRole('button', { name: 'Add alias' }));
    await user.type(aliases.getByLabelText('Identifier 2'), 'employee_no');
    await user.type(aliases.getByLabelText('Value 2'), 'no <tags>');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(errorOf('Identifier 2')).toBe('This identifier is already used by another alias.');
    expect(errorOf('Value 2')).toBe('This value is not allowed.');
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(aliases.getByLabelText('Identifier 2'));
    await user.type(aliases.getByLabelText('Identifier 2'), 'bad id!');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(errorOf('Identifier 2')).toBe('Invalid identifier.');

    await user.clear(aliases.getByLabelText('Identifier 2'));
    await user.type(aliases.getByLabelText('Identifier 2'), 'mail.alias');
    await user.clear(aliases.getByLabelText('Value 2'));
    await user.type(aliases.getByLabelText('Value 2'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      aliases: { employee_no: '4711', 'mail.alias': 'ada@example.com' },
    });
  });

  it('requires both parts of an alias row', async () => {
    profileApi(profileFixture());
    renderApp(EDIT_PATH);
    const user = await openForm();
    const aliases = within(screen.getByRole('group', { name: 'Aliases' }));
    await user.click(aliases.getByRole('button', { name: 'Add alias' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(errorOf('Identifier 1')).toBe('This field is required.');
    expect(errorOf('Value 1')).toBe('This field is required.');
  });

  it('Cancel goes back to the profile', async () => {
    profileApi(profileFixture());
    const { router } = renderApp(EDIT_PATH);
    const user = await openForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });
});
