// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { json, mockApi, renderApp } from '../../support.tsx';

/**
 * A signed-in user opening a page before sign-in in a new tab: the page load has no token in memory,
 * but the refresh cookie still holds the session, and the server renews it.
 */
function signedInBrowser() {
  return mockApi({
    'POST /imauth/api/v1/refresh': () =>
      json({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 }),
    'GET /account/ui-api/v1/setup/status': () =>
      json({ licence_installed: true, administrator_exists: true }),
    'GET /account/ui-api/v1/license/status': () => json({ status: 'VALID', redirect_url: null }),
    'GET /account/api/v1/locales': () => json({ items: [], total: 0 }),
  });
}

describe('a signed-in user opening a page before sign-in', () => {
  it('is taken where the sign-in state leads, not to the sign-in form', async () => {
    const api = signedInBrowser();
    const state = encodeSignInState({ return_path: '/account/profile' });
    const { router } = renderApp(`/account/login?state=${state}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(api.calls.some((call) => call.path === '/imauth/api/v1/refresh')).toBe(true);
  });

  it('is not sent round in a circle by a state that leads back to sign-in', async () => {
    signedInBrowser();
    const inner = encodeSignInState({ return_path: '/account/profile' });
    const state = encodeSignInState({ return_path: `/account/login?state=${inner}` });
    const { router } = renderApp(`/account/login?state=${state}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/accounts'));
  });

  it('is taken to the trust agent page when the trust agent asked for the sign-in, the return path kept', async () => {
    signedInBrowser();
    const state = encodeSignInState({ return_path: '/account/profile', trust_agent_request: true });
    const { router } = renderApp(`/account/login?state=${state}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dta-sign-in-success-info'));
    expect(router.state.location.search).toEqual({ return_path: '/account/profile' });
  });

  it.each(['/account/setup-license', '/account/setup-user'])(
    'is taken to the accounts from %s',
    async (path) => {
      signedInBrowser();
      const { router } = renderApp(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/accounts'));
    },
  );
});
