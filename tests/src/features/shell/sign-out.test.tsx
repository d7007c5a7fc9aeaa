// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveStorageKey, ownerTag } from '../../../../contract/offline-storage.ts';
import { OUTBOX_CHANNEL, type OutboxEntryView } from '../../../../contract/outbox.ts';
import { profileFixture } from '../../fixtures.ts';
import {
  freshIndexedDb,
  openDatabase,
  randomSecret,
  stubServiceWorker,
} from '../../lib/offline/offline-support.ts';
import { apiError, closeTabs, json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const PROFILE = profileFixture();

/** What happened, in order: messages to the worker and calls to the server. */
let events: string[] = [];
let posted: unknown[] = [];
let restoreWorker: () => void = () => undefined;

/**
 * The server's side of one session: a sign-out ends it, so its refresh cookie renews nothing after
 * that, and the sign-in page (which tries the cookie first) stays.
 */
function signedInApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  let ended = false;
  const handlers = signedInHandlers(PROFILE, ['VIEW_ACCOUNT']);
  const refresh = handlers['POST /imauth/api/v1/refresh'];
  return mockApi({
    ...handlers,
    'POST /imauth/api/v1/refresh': (request) =>
      ended || !refresh ? apiError(401, 'No session.') : refresh(request),
    'GET /imauth/api/v1/storage-secret': () => json({ secret: randomSecret() }),
    'GET /account/ui-api/v1/tenants': () => json({ items: [], total: 0 }),
    'POST /imauth/api/v1/logout': () => {
      events.push('logout');
      ended = true;
      return new Response(null, { status: 204 });
    },
    ...overrides,
  });
}

const WAITING: OutboxEntryView = {
  id: 'entry-1',
  sequence: 1,
  accountId: null,
  method: 'PUT',
  url: '/account/ui-api/v1/organizations/o1',
  body: { name: 'Acme' },
  summary: 'Edit organization Acme',
  createdAt: '2026-11-20T09:30:00Z',
  attempts: 0,
  state: 'pending',
  error: null,
  current: null,
};

async function broadcastWaiting() {
  const channel = new BroadcastChannel(OUTBOX_CHANNEL);
  channel.postMessage({ type: 'outbox', owner: await ownerTag(PROFILE.id), entries: [WAITING] });
  channel.close();
  await screen.findByRole('button', { name: /Outbox: 1 change waiting/ });
}

/**
 * Sign out from the user menu by keyboard (Ark's menus keep pointer state between tests in jsdom;
 * see accounts-list-support.ts): it is the menu's last entry.
 */
async function chooseSignOut() {
  await screen.findByRole('button', { name: 'Ada Lovelace' });
  const user = userEvent.setup();
  act(() => screen.getByRole('button', { name: 'Ada Lovelace' }).focus());
  await user.keyboard('{ArrowDown}');
  await screen.findByRole('menuitem', { name: 'Sign out' });
  const highlighted = () =>
    document.querySelector('[role="menuitem"][data-highlighted]')?.textContent?.trim();
  await waitFor(async () => {
    if (highlighted() !== 'Sign out') await user.keyboard('{End}');
    expect(highlighted()).toBe('Sign out');
  });
  await user.keyboard('{Enter}');
  return user;
}

beforeEach(() => {
  freshIndexedDb();
  events = [];
  posted = [];
  restoreWorker = stubServiceWorker(
    new Proxy(posted, {
      get: (target, property) =>
        property === 'push'
          ? (message: { type: string }) => {
              events.push(message.type);
              return target.push(message);
            }
          : Reflect.get(target, property),
    }),
  );
});
afterEach(async () => {
  // The end of a sign-out (leaving for sign-in, then ending the session) runs on after the test's
  // last check; it must not reach into the next test's session.
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  restoreWorker();
  await closeTabs();
  localStorage.clear();
});

describe('sign-out with changes waiting', () => {
  it('asks, keeps them when the user says so, and destroys the key before the server session ends', async () => {
    signedInApi();
    const { router } = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
    await broadcastWaiting();

    const user = await chooseSignOut();
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out with changes waiting?' });
    expect(dialog.textContent).toContain('1 change you made is not on the server yet.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep and sign out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(posted).toContainEqual({ type: 'session-ended', userId: PROFILE.id, keep: true });
    expect(events.filter((event) => event === 'session-ended' || event === 'logout')).toEqual([
      'session-ended',
      'logout',
    ]);
    const database = await openDatabase();
    const owner = await ownerTag(PROFILE.id);
    expect(await liveStorageKey(database, owner, Date.now())).toBeUndefined();
    expect(await database.get('query-cache', owner)).toBeUndefined();
  });

  it('discards them when the user says so', async () => {
    signedInApi();
    const { router } = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
    await broadcastWaiting();
    const user = await chooseSignOut();
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Discard and sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(posted).toContainEqual({ type: 'session-ended', userId: PROFILE.id, keep: false });
  });

  it('stays signed in on Cancel', async () => {
    signedInApi();
    const { router } = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
    await broadcastWaiting();
    const user = await chooseSignOut();
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(router.state.location.pathname).toBe('/accounts');
    expect(events).not.toContain('logout');
    expect(posted).not.toContainEqual(expect.objectContaining({ type: 'session-ended' }));
  });

  it('ends a session whose sign-out could not reach the server on the next start, instead of signing back in', async () => {
    let online = true;
    let refreshes = 0;
    let ended = false;
    const network = (answer: () => Response) => () => {
      if (!online) throw new TypeError('Failed to fetch');
      return answer();
    };
    const { calls } = signedInApi({
      'POST /imauth/api/v1/refresh': network(() => {
        if (ended) return apiError(401, 'No session.');
        refreshes += 1;
        return json({ access_token: `token-${refreshes}`, expires_at: '2999-01-01T00:00:00Z' });
      }),
      'POST /imauth/api/v1/logout': network(() => {
        ended = true;
        return new Response(null, { status: 204 });
      }),
      'GET /account/ui-api/v1/setup/status': network(() =>
        json({ licence_installed: true, administrator_exists: true }),
      ),
    });
    const first = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });

    online = false;
    await chooseSignOut();
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/login'));
    first.unmount();
    await closeTabs();

    online = true;
    const second = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(second.router.state.location.pathname).toBe('/login');
    const logouts = calls.filter((call) => call.path === '/imauth/api/v1/logout');
    expect(logouts.map((call) => call.headers.get('Authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
    expect(calls.filter((call) => call.path === '/account/ui-api/v1/profile')).toHaveLength(1);
  });

  it('signs out without asking when nothing waits', async () => {
    signedInApi();
    const { router } = renderApp('/account/accounts');
    await screen.findByRole('heading', { name: 'Accounts', level: 1 });
    await chooseSignOut();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posted).toContainEqual({ type: 'session-ended', userId: PROFILE.id, keep: true });
  });
});
