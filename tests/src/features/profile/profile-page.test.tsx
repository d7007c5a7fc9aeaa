// @vitest-environment jsdom

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { profileFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const BASE = '/account/ui-api/v1';

type Handlers = Parameters<typeof mockApi>[0];

function profileApi(profile: Profile, extra: Handlers = {}) {
  return mockApi({ ...signedInHandlers(profile, []), ...extra });
}

function details() {
  const list = document.querySelector('dl.details');
  if (!(list instanceof HTMLElement)) throw new Error('The profile shows no details.');
  return within(list);
}

describe('own profile', () => {
  it('shows the fields, SAML and OIDC names only when present, aliases for system scope, and the actions', async () => {
    profileApi(
      profileFixture({
        phone: '+49301234567',
        oidc_username: 'ada@oidc.example',
        email_verified: false,
        aliases: { employee_no: '4711' },
      }),
    );
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    expect(details().getByText('+49301234567')).toBeTruthy();
    expect(details().getByText('ada@oidc.example')).toBeTruthy();
    expect(details().queryByText('SAML username')).toBeNull();
    expect(details().getByText('ada@example.com (not verified)')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Aliases' })).toBeTruthy();
    expect(screen.getByText('4711')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit profile' }).getAttribute('href')).toBe(
      '/account/profile/edit',
    );
    expect(screen.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe(
      '/account/profile/change-password',
    );
    expect(screen.getByRole('link', { name: 'API tokens and certificates' }).getAttribute('href')).toBe(
      '/account/profile/details',
    );
  });

  it('shows no aliases below system scope', async () => {
    profileApi(profileFixture({ access_scope: 'partner', aliases: {} }));
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    expect(screen.queryByRole('heading', { name: 'Aliases' })).toBeNull();
  });
});

describe('change password', () => {
  const PATH = '/account/profile/change-password';
  const field = (label: string) => within(screen.getByRole('form')).getByLabelText(label) as HTMLInputElement;
  const errorOf = (label: string) => {
    const ids = field(label).getAttribute('aria-describedby')?.split(' ') ?? [];
    return (
      ids.map((id) => document.getElementById(id)).find((node) => node?.className === 'field__error')
        ?.textContent ?? null
    );
  };

  async function fill(current: string, next: string, repeated = next) {
    await screen.findByRole('heading', { name: 'Change password', level: 1 });
    const user = userEvent.setup();
    await user.type(field('Current password'), current);
    await user.type(field('New password'), next);
    await user.type(field('Repeat new password'), repeated);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    return user;
  }

  it('checks the repetition before sending anything', async () => {
    const { calls } = profileApi(profileFixture());
    renderApp(PATH);
    await fill('Old-Password-123', 'New-Password-456!', 'Different-789!');
    expect(errorOf('Repeat new password')).not.toBeNull();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('shows a wrong current password under its field', async () => {
    const profile = profileFixture();
    profileApi(profile, {
      [`PUT ${BASE}/user/${profile.id}/password`]: () =>
        fieldErrorAnswer(400, 'current_password', 'wrongPassword'),
    });
    renderApp(PATH);
    await fill('Wrong-Password-123', 'New-Password-456!');
    await waitFor(() => expect(errorOf('Current password')).toBe('This is not the current password.'));
  });

  it('sends the change, says that other sessions ended, and opens the profile', async () => {
    const profile = profileFixture();
    const { calls } = profileApi(profile, {
      [`PUT ${BASE}/user/${profile.id}/password`]: () => new Response(null, { status: 204 }),
    });
    const { router } = renderApp(PATH);
    await fill('Old-Password-123', 'New-Password-456!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByText('Password changed. You were signed out everywhere else.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      current_password: 'Old-Password-123',
      password: 'New-Password-456!',
      repeatedPassword: 'New-Password-456!',
    });
  });
});
