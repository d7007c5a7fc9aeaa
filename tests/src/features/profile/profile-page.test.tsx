// @vitest-environment jsdom

import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { profileFixture } from '../../fixtures.ts';
import { fieldErrorAnswer } from '../../lib/form/field-error.ts';
import { apiError, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

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
    expect(details().getByText(/ada@example\.com \(not verified\)/)).toBeTruthy();
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

  it('names a built-in role by its code, in the reader’s language, and a custom role as named', async () => {
    profileApi(
      profileFixture({
        applications: [
          {
            app_code: 'account_manager',
            roles: [
              { name: 'Stored name of the administrator', code: 'account_administrator' },
              { name: 'Helpdesk', code: null },
            ],
          },
        ],
      }),
    );
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    expect(screen.getByText('Account administrator, Helpdesk')).toBeTruthy();
    expect(screen.queryByText(/Stored name/)).toBeNull();
  });

  it('shows no aliases below system scope', async () => {
    profileApi(profileFixture({ access_scope: 'partner', aliases: {} }));
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    expect(screen.queryByRole('heading', { name: 'Aliases' })).toBeNull();
  });
});

describe('own profile: verification and default application', () => {
  const ID = profileFixture().id;
  const applications = {
    items: [
      { id: 'a1', app_code: 'account_manager', app_name: 'Document management', context: 'dms', roles: [] },
      { id: 'a2', app_code: 'ca_manager', app_name: 'Records management', context: 'rms', roles: [] },
    ],
    total: 2,
  };

  it('resends the verification link only while the e-mail is not verified, and shows a 429 as the throttling notice', async () => {
    let answer: () => Response = () => new Response(null, { status: 204 });
    const api = profileApi(profileFixture({ email_verified: false }), {
      [`PUT ${BASE}/user/${ID}/verification`]: () => answer(),
    });
    renderApp('/account/profile');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Verification link resent.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.path)).toEqual([
      `${BASE}/user/${ID}/verification`,
    ]);
    answer = () => apiError(429, 'Try again in 5 minutes.', { 'Retry-After': '300' });
    await user.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Too many requests. Wait a moment and try again.')).toBeTruthy();
  });

  it('offers no resend for a verified e-mail', async () => {
    profileApi(profileFixture({ email_verified: true }));
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('disables resend offline', async () => {
    profileApi(profileFixture({ email_verified: false }));
    renderApp('/account/profile');
    const button = await screen.findByRole('button', { name: 'Resend' });
    act(() => onlineManager.setOnline(false));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Resend' }).getAttribute('aria-disabled')).toBe('true'),
    );
    expect(button).toBeTruthy();
    act(() => onlineManager.setOnline(true));
  });

  it('saves the default application among the applications one holds a role in', async () => {
    let appUrl: string | null = null;
    const api = profileApi(profileFixture({ default_application: 'account_manager' }), {
      [`GET ${BASE}/user/${ID}/applications`]: () => json(applications),
      [`PUT ${BASE}/user/${ID}/defaultManager`]: ({ url }) => {
        appUrl = url.searchParams.get('appUrl');
        return new Response(null, { status: 204 });
      },
    });
    renderApp('/account/profile');
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    const select = (await screen.findByRole('combobox', {
      name: 'Default application',
    })) as HTMLSelectElement;
    expect(select.value).toBe('dms');
    const save = screen.getByRole('button', { name: 'Set default application' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const user = userEvent.setup();
    await user.selectOptions(select, 'rms');
    await user.click(save);
    expect(await screen.findByText('Default application updated.')).toBeTruthy();
    const put = api.calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(`${BASE}/user/${ID}/defaultManager`);
    expect(appUrl).toBe('rms');
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
