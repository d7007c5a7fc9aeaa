// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, type PermissionName } from '../../../../contract/permissions.ts';
import { decodeSignInState } from '../../../../contract/schemas/identity.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { apiError, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

function signedInApi(profile: Profile, permissions: readonly PermissionName[], extra = {}) {
  return mockApi({
    ...signedInHandlers(profile, permissions),
    ...extra,
  });
}

async function mainNavigationLinks() {
  const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

describe('secure layout', () => {
  it('restores the session from the refresh cookie and shows the system administrator everything', async () => {
    const { calls } = signedInApi(profileFixture(), BUILT_IN_ROLES.system_administrator.permissions);
    renderApp('/account/accounts');
    expect(await screen.findByRole('heading', { name: 'Accounts', level: 1 })).toBeTruthy();
    expect(await mainNavigationLinks()).toEqual([
      'Accounts',
      'Organizations',
      'Certificate authority',
      'Certificates',
      'Enrollments',
      'Certificate profiles',
      'Root CA',
      'Intermediate CA',
      'Client tools',
      'Access',
      'Administrators',
      'Service users',
      'Reporting',
      'Logging',
      'Platform settings',
    ]);
    expect(calls.find((call) => call.path === '/imauth/api/v1/refresh')?.body).toEqual({});
    const profileCall = calls.find((call) => call.path === '/account/ui-api/v1/profile');
    expect(profileCall?.headers.get('Authorization')).toBe('Bearer token-1');
  });

  it('shows an account auditor no platform settings and leads Access to the profile', async () => {
    const profile = profileFixture({ access_scope: 'account' });
    signedInApi(profile, ['VIEW_ACCOUNT', 'VIEW_AUDIT_LOG']);
    renderApp('/account/accounts');
    expect(await mainNavigationLinks()).toEqual([
      'Accounts',
      'Certificate authority',
      'Client tools',
      'Access',
      'Reporting',
      'Logging',
    ]);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Access' }).getAttribute('href')).toBe('/account/profile');
  });

  it('titles the tab after the page, the account worked in and the product', async () => {
    signedInApi(profileFixture(), BUILT_IN_ROLES.system_administrator.permissions);
    const { router } = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
    await waitFor(() => expect(document.title).toBe('Accounts · System Account — Trust Console'));
    // A title made of loaded data follows the heading.
    await router.navigate({ to: '/profile' });
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 });
    await waitFor(() => expect(document.title).toBe('Ada Lovelace · System Account — Trust Console'));
  });

  it('shows the 403 page inside the shell for a section the user may not see', async () => {
    signedInApi(profileFixture({ access_scope: 'account' }), ['VIEW_ACCOUNT']);
    renderApp('/account/reporting/logging');
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeTruthy();
  });

  it('labels the user menu with the full name and signs out from it', async () => {
    const { calls } = signedInApi(profileFixture(), ['VIEW_ACCOUNT']);
    const { router } = renderApp('/account/accounts');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((call) => call.method === 'POST' && call.path === '/imauth/api/v1/logout')).toBe(true);
  });

  it("speaks the signed-in user's language, not the one the last person chose on this browser", async () => {
    window.localStorage.setItem('trust-console.language', 'fr_FR');
    signedInApi(profileFixture({ locale: 'en_US' }), ['VIEW_ACCOUNT']);
    renderApp('/account/accounts');
    // The page started in the stored language, as the console's start does before anyone signs in.
    i18n.loadAndActivate({ locale: 'fr', messages: {} });
    await screen.findByRole('button', { name: 'Ada Lovelace' });
    expect(i18n.locale).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('names the notification region in the user’s language, not the toast library’s English', async () => {
    signedInApi(profileFixture({ locale: 'de_DE' }), ['VIEW_ACCOUNT']);
    renderApp('/account/profile');
    expect(await screen.findByRole('region', { name: 'Benachrichtigungen (Alt+T)' })).toBeTruthy();
  });

  it('refuses Platform settings by its address below the system scope, though the role holds a licence permission', async () => {
    signedInApi(
      profileFixture({ access_scope: 'partner' }),
      BUILT_IN_ROLES.partner_administrator.permissions,
    );
    renderApp('/account/settings');
    expect(await screen.findByText('You do not have permission to view this page.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Platform settings' })).toBeNull();
  });

  it('marks the current breadcrumb and disables the profile crumb', async () => {
    signedInApi(profileFixture(), ['VIEW_ACCOUNT']);
    renderApp('/account/profile');
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    const current = within(crumbs).getByText('Profile');
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(current.getAttribute('aria-disabled')).toBe('true');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeTruthy();
  });

  it('sends an anonymous visitor to sign-in with the page as return path', async () => {
    mockApi({ 'POST /imauth/api/v1/refresh': () => apiError(401, 'No session.') });
    const { router } = renderApp('/account/reporting/logging?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const { state } = router.state.location.search as { state?: string };
    expect(decodeSignInState(state)?.return_path).toBe('/account/reporting/logging?page=2');
  });

  it('shows the expiry banner to an account user whose account has ended', async () => {
    const profile = profileFixture({
      access_scope: 'account',
      accounts: [
        { id: ACCOUNT_ID, display_name: 'Example Corp', active: false, service_period: { to: null } },
      ],
    });
    signedInApi(profile, ['VIEW_ACCOUNT']);
    renderApp('/account/accounts');
    expect((await screen.findByRole('alert')).textContent).toContain('Your account has expired.');
  });
});
