// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { encodeSignInState, type SignInState } from '../../../../contract/schemas/identity.ts';
import { STORAGE_KEYS } from '../../../../src/lib/storage-keys.ts';
import { apiError, json, mockApi, renderApp } from '../../support.tsx';

const customization = {
  logo: null,
  urls: {
    termsOfUse: 'https://example.com/terms',
    privacyPolicy: null,
    legalRepository: null,
    webtrustAudit: null,
    support: 'https://example.com/support',
    contactUs: null,
  },
  copyright: '© 2025 Example Trust',
};

function publicApi(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /imauth/api/v1/login/customization': () => json(customization),
    'GET /account/api/v1/locales': () => json({ items: [{ id: 'en_US', name: 'English (US)' }], total: 1 }),
    'POST /imauth/api/v1/refresh': () => apiError(401, 'No session.'),
    'GET /account/ui-api/v1/setup/status': () =>
      json({ licence_installed: true, administrator_exists: true }),
    ...extra,
  });
}

const loginPath = (state: SignInState) => `/account/login?state=${encodeSignInState(state)}`;

describe('sign-in page', () => {
  it('sends the visitor to setup while the platform has no administrator', async () => {
    publicApi({
      'GET /account/ui-api/v1/setup/status': () =>
        json({ licence_installed: false, administrator_exists: false }),
      'GET /account/ui-api/v1/license/status': () => json({ status: 'NOT_FOUND', redirect_url: null }),
    });
    renderApp(loginPath({ return_path: '/account/accounts' }));
    expect(await screen.findByRole('heading', { name: 'Set up the licence' })).toBeTruthy();
  });

  it('shows the form at once where the platform was seen set up, and leaves if the answer says otherwise', async () => {
    window.localStorage.setItem(STORAGE_KEYS.platformConfigured, '1');
    let answerStatus = (_answer: Response) => {};
    publicApi({
      'GET /account/ui-api/v1/setup/status': () =>
        new Promise<Response>((resolve) => {
          answerStatus = resolve;
        }),
      'GET /account/ui-api/v1/license/status': () => json({ status: 'VALID', redirect_url: null }),
    });
    renderApp(loginPath({ return_path: '/account/accounts' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();

    answerStatus(json({ licence_installed: true, administrator_exists: false }));
    expect(await screen.findByRole('heading', { name: 'Create the first administrator' })).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEYS.platformConfigured)).toBeNull();
  });

  it('remembers a platform seen set up', async () => {
    publicApi();
    renderApp(loginPath({ return_path: '/account/accounts' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEYS.platformConfigured)).toBe('1');
  });

  it('shows without a connection, where a sign-out made offline leads, and fails on a server error', async () => {
    publicApi({
      'GET /account/ui-api/v1/setup/status': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { unmount } = renderApp(loginPath({ return_path: '/account/accounts' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    unmount();

    publicApi({ 'GET /account/ui-api/v1/setup/status': () => apiError(500, 'The database is down.') });
    renderApp(loginPath({ return_path: '/account/accounts' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull());
    expect(await screen.findByText('The database is down.')).toBeTruthy();
  });

  it('shows the username step with the language dropdown and the configured footer links only', async () => {
    publicApi();
    renderApp(loginPath({ return_path: '/account/accounts' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Terms of use' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Support' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Privacy policy' })).toBeNull();
    expect(screen.getByText('© 2025 Example Trust')).toBeTruthy();
  });

  it('shows the banner when the state says the username was not found', async () => {
    publicApi();
    renderApp(loginPath({ error: 'username_not_found' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Login username not found.');
  });

  it('offers account creation only when the state allows it', async () => {
    publicApi();
    const { unmount } = renderApp(loginPath({ allow_account_creation: true }));
    expect(await screen.findByText(/Don't have an account\?/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create one' })).toBeTruthy();
    unmount();

    renderApp(loginPath({}));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByText(/Don't have an account\?/)).toBeNull();
  });

  it('prefills the login hint and shows the friendly name', async () => {
    publicApi();
    renderApp(loginPath({ login_hint: 'ada', friendly_name: 'Example Corp' }));
    expect(((await screen.findByLabelText('Username')) as HTMLInputElement).value).toBe('ada');
    expect(screen.getByText('You are signing in to Example Corp.')).toBeTruthy();
  });

  it('asks for a username before Next and rejects characters that are not allowed', async () => {
    const { calls } = publicApi();
    renderApp(loginPath({}));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.getByText('Username is required.')).toBeTruthy();
    await user.type(screen.getByLabelText('Username'), 'ada lovelace');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Invalid user name.')).toBeTruthy();
    expect(calls.some((call) => call.path === '/imauth/api/v1/login/verify')).toBe(false);
  });

  it('goes to the password step and says when the credentials are wrong', async () => {
    const state = encodeSignInState({ return_path: '/account/accounts' });
    const { calls } = publicApi({
      'POST /imauth/api/v1/login/verify': () => json({ next: 'password', state }),
      'POST /imauth/api/v1/auth/login': () => apiError(401, 'Invalid username or password.'),
    });
    renderApp(`/account/login?state=${state}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(calls.find((call) => call.path === '/imauth/api/v1/login/verify')?.body).toEqual({
      username: 'ada',
      state,
      language: 'en_US',
    });

    await user.type(await screen.findByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The username or password is incorrect.')).toBeTruthy();
    expect(within(alert).queryByText('Invalid username or password.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Use another account' })).toBeTruthy();
  });

  it('tells how long to wait when sign-in is throttled', async () => {
    const state = encodeSignInState({});
    publicApi({
      'POST /imauth/api/v1/login/verify': () => json({ next: 'password', state }),
      'POST /imauth/api/v1/auth/login': () => apiError(429, 'Too many attempts.', { 'Retry-After': '30' }),
    });
    renderApp(`/account/login?state=${state}`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Too many failed attempts. Try again in 30 seconds.')).toBeTruthy();
  });

  it('without a state goes through the console home back to sign-in with a return path', async () => {
    publicApi();
    const { router } = renderApp('/account/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(router.state.location.search).toHaveProperty('state'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.search).toEqual({
      state: encodeSignInState({ return_path: '/account/accounts' }),
    });
  });
});
