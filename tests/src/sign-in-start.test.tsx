// @vitest-environment jsdom

import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeSignInState, encodeSignInState } from '../../contract/schemas/identity.ts';
import { OfflineSupportProvider } from '../../src/lib/offline/support.ts';
import type { PageNavigation } from '../../src/lib/page-navigation.tsx';
import { SessionProvider } from '../../src/lib/session.ts';
import { enterSignInPage, SignInStart } from '../../src/sign-in-start.tsx';
import { activateEnglish, apiError, consolePage, json, mockApi, testQueryClient } from './support.tsx';

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('entering the sign-in page before the router', () => {
  const returnPathOf = (state: string) => decodeSignInState(state)?.return_path;

  it('leads the base and the bare sign-in address on to the accounts list, as the router would', () => {
    for (const path of ['/account/', '/account', '/account/login']) {
      window.history.replaceState(null, '', path);
      const state = enterSignInPage();
      expect(returnPathOf(state), path).toBe('/account/accounts');
      expect(`${window.location.pathname}${window.location.search}`, path).toBe(
        `/account/login?${new URLSearchParams({ state })}`,
      );
    }
  });

  it('brings a secure page back to itself after sign-in', () => {
    window.history.replaceState(null, '', '/account/accounts/7/users?page=2#list');
    expect(returnPathOf(enterSignInPage())).toBe('/account/accounts/7/users?page=2#list');
    expect(window.location.pathname).toBe('/account/login');
  });

  it('keeps the state a sign-in address brings, and the address', () => {
    const given = encodeSignInState({ return_path: '/account/profile', friendly_name: 'Desk agent' });
    window.history.replaceState(null, '', `/account/login?state=${given}`);
    expect(enterSignInPage()).toBe(given);
    expect(window.location.search).toBe(`?state=${given}`);
  });
});

describe('the sign-in page drawn before the router', () => {
  function drawStart(state: string) {
    activateEnglish();
    const navigation: PageNavigation = { go: vi.fn(() => Promise.resolve()), preload: vi.fn() };
    const { session, offline } = consolePage(testQueryClient());
    render(
      <I18nProvider i18n={i18n}>
        <SessionProvider value={session}>
          <OfflineSupportProvider value={offline}>
            <SignInStart encodedState={state} navigation={navigation} />
          </OfflineSupportProvider>
        </SessionProvider>
      </I18nProvider>,
    );
    return { navigation, session };
  }

  function publicApi(extra: Parameters<typeof mockApi>[0] = {}) {
    return mockApi({
      'GET /imauth/api/v1/login/customization': () => apiError(503, 'Unavailable.'),
      'GET /account/api/v1/locales': () => json({ items: [{ id: 'en_US', name: 'English (US)' }], total: 1 }),
      'GET /account/ui-api/v1/setup/status': () =>
        json({ licence_installed: true, administrator_exists: true }),
      ...extra,
    });
  }

  it('hands the first screen after sign-in to the navigation: loading it during the licence check, then going', async () => {
    const state = encodeSignInState({ return_path: '/account/accounts/7' });
    publicApi({
      'POST /imauth/api/v1/login/verify': () => json({ next: 'password', state }),
      'POST /imauth/api/v1/auth/login': () =>
        json({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 }),
      'GET /account/ui-api/v1/license/status': () => json({ status: 'VALID', redirect_url: null }),
    });
    const { navigation, session } = drawStart(state);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Password'), 'correct horse battery staple');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await vi.waitFor(() => expect(navigation.go).toHaveBeenCalledWith('/accounts/7'));
    expect(navigation.preload).toHaveBeenCalledWith('/accounts/7');
    await session.end();
  });

  it('follows its links through the navigation, and leaves a click with a modifier to the browser', async () => {
    publicApi();
    const { navigation } = drawStart(
      encodeSignInState({ return_path: '/account/accounts', allow_account_creation: true }),
    );
    const link = await screen.findByRole('link', { name: 'Create one' });
    expect(link.getAttribute('href')).toBe('/account/create-user-account');

    await userEvent.setup().click(link);
    expect(navigation.go).toHaveBeenCalledWith('/create-user-account');

    // A new tab is the browser's: the click is left as it is.
    const opensTab = fireEvent.click(link, { ctrlKey: true });
    expect(opensTab).toBe(true);
    expect(navigation.go).toHaveBeenCalledTimes(1);
  });

  it('leaves for the open setup step when the status says the platform has no administrator', async () => {
    publicApi({
      'GET /account/ui-api/v1/setup/status': () =>
        json({ licence_installed: true, administrator_exists: false }),
    });
    const { navigation } = drawStart(encodeSignInState({ return_path: '/account/accounts' }));
    await vi.waitFor(() => expect(navigation.go).toHaveBeenCalledWith('/setup-user', { replace: true }));
  });
});
