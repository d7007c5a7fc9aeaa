// @vitest-environment jsdom
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { liveStorageKey, ownerTag } from '../../../../contract/offline-storage.ts';
import { OUTBOX_CHANNEL } from '../../../../contract/outbox.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { OfflineError } from '../../../../src/lib/api-client.ts';
import {
  applicationsQueryOptions,
  permissionsQueryOptions,
  profileQueryOptions,
} from '../../../../src/lib/current-user.ts';
import { featureFlagsQueryOptions } from '../../../../src/lib/feature-flags.ts';
import { createSealedPersister, PERSIST_THROTTLE_MS } from '../../../../src/lib/offline/persister.ts';
import { apiQueueableRequest, newIdempotencyKey } from '../../../../src/lib/offline/queueable-request.ts';
import { SecureSessions } from '../../../../src/lib/offline/secure-session.ts';
import { createQueryClient, screenDataOf } from '../../../../src/lib/query-client.ts';
import { SessionController } from '../../../../src/lib/session.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { activateEnglish, apiError, holdRefreshCookie, json, mockApi } from '../../support.tsx';
import { freshIndexedDb, openDatabase, randomSecret, stubServiceWorker } from './offline-support.ts';

const ALICE = profileFixture();
const BOB = profileFixture({ id: 'c0a80101-0000-4000-8000-0000000000b0', first_name: 'Bob' });
/** The one table the secure layout starts the offline support with. */
const STALE_AFTER = [{ paths: '/account/ui-api/v1/organizations', queryKeys: [['organizations']] }];
const noStaleAfter = () => Promise.resolve([]);
const TOKENS = { access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z' };

function onlineApi(profile: Profile, secret: string) {
  return mockApi({
    'POST /imauth/api/v1/refresh': () => json(TOKENS),
    'GET /imauth/api/v1/storage-secret': () => json({ secret }),
    'GET /account/ui-api/v1/profile': () => json(profile),
    'GET /account/ui-api/v1/permission': () => json({ items: [{ name: 'VIEW_ACCOUNT' }], total: 1 }),
    'GET /account/ui-api/v1/user/applications': () => json({ items: [], total: 0 }),
    'GET /account/ui-api/v1/feature-flag/features': () => json({ items: [], total: 0 }),
  });
}

/** The network is gone: every request fails as fetch does without a connection. */
/** The browser still holds its refresh cookie (and the hint beside it); the server is out of reach. */
function noNetwork() {
  holdRefreshCookie(true);
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
  );
}

/** A page's start with a session, as the secure layout and its loader make it, then closed. */
async function signedInPage(profile: Profile, secret: string): Promise<QueryClient> {
  onlineApi(profile, secret);
  const queryClient = createQueryClient(() => undefined, noStaleAfter);
  expect(await startOn(queryClient)).toBe('online');
  await queryClient.ensureQueryData(permissionsQueryOptions(profile.access_scope, ACCOUNT_ID));
  await queryClient.ensureQueryData(applicationsQueryOptions(ACCOUNT_ID));
  await secure?.flush();
  return queryClient;
}

/** `lost` is what the page does when the server says the session is over. */
let lost = vi.fn();
/** The page's secure sessions, made when the secure layout first starts. */
let secure: SecureSessions | null = null;

/** The page's session, wired to its secure sessions as main.tsx wires it to the offline support. */
function pageSession() {
  return new SessionController({
    ended: () => undefined,
    lost,
    carriesOnOffline: () => secure?.carriesOn() ?? false,
    closeOffline: async (keepOutbox) => {
      await secure?.close(keepOutbox);
    },
  });
}
let session = pageSession();

/** The secure layout's start, on a page whose query client is `queryClient`. */
function startOn(queryClient: QueryClient) {
  secure = new SecureSessions({
    controller: session,
    queryClient,
    loadStaleAfter: () => Promise.resolve(STALE_AFTER),
    notify: () => undefined,
  });
  return secure.start();
}

/** The tab closes: nothing of the page's memory survives, what is stored stays. */
function closePage() {
  secure?.stop();
  secure = null;
  session.forgetToken();
  session = pageSession();
  // The browser's database outlives the tab; only the network's stubs go.
  const browserDatabase = indexedDB;
  vi.unstubAllGlobals();
  vi.stubGlobal('indexedDB', browserDatabase);
}

beforeEach(() => {
  activateEnglish();
  freshIndexedDb();
  lost = vi.fn();
  secure = null;
  session = pageSession();
});
afterEach(() => {
  secure?.stop();
  session.forgetToken();
  onlineManager.setOnline(true);
});

describe('secure session start', () => {
  it('makes a key for the sign-in and records whose session it is', async () => {
    await signedInPage(ALICE, randomSecret());
    const database = await openDatabase();
    const owner = await ownerTag(ALICE.id);
    expect(await database.get('meta', 'last-session')).toMatchObject({ owner });
    expect((await liveStorageKey(database, owner, Date.now()))?.key?.extractable).toBe(false);
    expect(await database.get('query-cache', owner)).toBeDefined();
  });

  it('reads what the user may do from the server at every online start, not from the cache', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();

    // Meanwhile an administrator granted a permission; the cache still holds the old list.
    mockApi({
      'POST /imauth/api/v1/refresh': () => json(TOKENS),
      'GET /imauth/api/v1/storage-secret': () => json({ secret: randomSecret() }),
      'GET /account/ui-api/v1/profile': () => json(ALICE),
      'GET /account/ui-api/v1/permission': () =>
        json({ items: [{ name: 'VIEW_ACCOUNT' }, { name: 'MANAGE_ACCOUNT' }], total: 2 }),
      'GET /account/ui-api/v1/user/applications': () => json({ items: [], total: 0 }),
    });
    const queryClient = createQueryClient(() => undefined, noStaleAfter);
    expect(await startOn(queryClient)).toBe('online');
    const permissions = await queryClient.ensureQueryData(
      permissionsQueryOptions(ALICE.access_scope, ACCOUNT_ID),
    );
    expect(JSON.stringify(permissions)).toContain('MANAGE_ACCOUNT');
  });

  it('reads the feature flags from the server at every online start, not from the cache', async () => {
    const first = await signedInPage(ALICE, randomSecret());
    await first.ensureQueryData(featureFlagsQueryOptions());
    await secure?.flush();
    closePage();

    // Meanwhile an administrator turned partner accounts on.
    mockApi({
      'POST /imauth/api/v1/refresh': () => json(TOKENS),
      'GET /imauth/api/v1/storage-secret': () => json({ secret: randomSecret() }),
      'GET /account/ui-api/v1/profile': () => json(ALICE),
      'GET /account/ui-api/v1/feature-flag/features': () =>
        json({ items: [{ name: 'partner_accounts', enabled: true }], total: 1 }),
    });
    const queryClient = createQueryClient(() => undefined, noStaleAfter);
    expect(await startOn(queryClient)).toBe('online');
    const flags = await screenDataOf(queryClient).load(featureFlagsQueryOptions());
    expect(JSON.stringify(flags)).toContain('"enabled":true');
  });

  it('opens offline on the last user’s cached screens, with no token and no waiting', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();

    noNetwork();
    const queryClient = createQueryClient(() => undefined, noStaleAfter);
    expect(await startOn(queryClient)).toBe('offline');
    expect(onlineManager.isOnline()).toBe(false);
    expect(queryClient.getQueryData(profileQueryOptions().queryKey)?.id).toBe(ALICE.id);
    // What the layout's loader asks for comes from the cache...
    const screenData = screenDataOf(queryClient);
    await expect(screenData.load(profileQueryOptions())).resolves.toMatchObject({ id: ALICE.id });
    // ...and what was never loaded fails at once instead of waiting for a network, recorded on its
    // query for the screen to show.
    await expect(
      screenData.load({ queryKey: ['never-loaded'], queryFn: () => Promise.resolve(1) }),
    ).rejects.toBeInstanceOf(OfflineError);
    await screenData.preload({ queryKey: ['never-preloaded'], queryFn: () => Promise.resolve(1) });
    expect(queryClient.getQueryState(['never-preloaded'])?.error).toBeInstanceOf(OfflineError);
  });

  it('lets the worker keep changes only while the user has a live key in this page', async () => {
    const restoreWorker = stubServiceWorker([]);
    onTestFinished(restoreWorker);
    await signedInPage(ALICE, randomSecret());
    const outbox = secure?.outbox;
    if (!outbox) throw new Error('no secure sessions');
    const change = () =>
      apiQueueableRequest('PUT', '/account/ui-api/v1/organizations/o1', {
        body: {},
        ifMatch: 1,
        queue: {
          idempotencyKey: newIdempotencyKey(),
          owner: ALICE.id,
          outbox,
          accountId: null,
          summary: 'Edit organization Acme',
          resource: '/account/ui-api/v1/organizations/o1',
        },
      }).catch(() => undefined);
    const { calls } = mockApi({});
    await change();
    expect(calls[0]?.headers.get('X-Outbox-Owner')).toBe(ALICE.id);
    await session.closeOffline(true);
    await change();
    expect(calls[1]?.headers.get('X-Outbox-Owner')).toBeNull();
    expect(calls[1]?.headers.get('Idempotency-Key')).toMatch(/^"[0-9a-f-]{36}"$/);
  });

  it('leads to the offline page when nothing was kept', async () => {
    noNetwork();
    expect(await startOn(createQueryClient(() => undefined, noStaleAfter))).toBe('unavailable');
  });

  it('goes to sign-in when the server answers that the session is over', async () => {
    mockApi({ 'POST /imauth/api/v1/refresh': () => apiError(401, 'No session.') });
    expect(await startOn(createQueryClient(() => undefined, noStaleAfter))).toBe('signed-out');
  });

  it('continues online with a new key once the network returns', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();
    noNetwork();
    const queryClient = createQueryClient(() => undefined, noStaleAfter);
    expect(await startOn(queryClient)).toBe('offline');
    const database = await openDatabase();
    const owner = await ownerTag(ALICE.id);
    const before = await liveStorageKey(database, owner, Date.now());

    const { calls } = onlineApi(ALICE, randomSecret());
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(true));
    await vi.waitFor(async () =>
      expect((await liveStorageKey(database, owner, Date.now()))?.keyId).not.toBe(before?.keyId),
    );
    expect(calls.some((call) => call.path === '/imauth/api/v1/refresh')).toBe(true);
  });

  it('follows the session offline and back, with a new key when a renewal elsewhere in the page brings it back', async () => {
    await signedInPage(ALICE, randomSecret());
    const database = await openDatabase();
    const owner = await ownerTag(ALICE.id);
    const before = await liveStorageKey(database, owner, Date.now());

    noNetwork();
    expect(await session.refresh()).toBe('unreachable');
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(false));
    expect(secure?.carriesOn()).toBe(true);
    // The browser says it is back, the server is still out of reach: the queries keep waiting.
    window.dispatchEvent(new Event('online'));
    expect(await session.refresh()).toBe('unreachable');
    await vi.waitFor(() => expect(onlineManager.isOnline()).toBe(false));

    onlineApi(ALICE, randomSecret());
    expect(await session.refresh()).toBe('renewed');
    expect(onlineManager.isOnline()).toBe(true);
    await vi.waitFor(async () =>
      expect((await liveStorageKey(database, owner, Date.now()))?.keyId).not.toBe(before?.keyId),
    );
  });

  it('starts with the queries waiting when the session went offline before the start was loaded', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();
    noNetwork();
    // The layout's own question to the refresh cookie, before its code (and the start) arrived.
    expect(await session.check()).toBe('unreachable');
    expect(onlineManager.isOnline()).toBe(true);
    expect(await startOn(createQueryClient(() => undefined, noStaleAfter))).toBe('offline');
    expect(onlineManager.isOnline()).toBe(false);
  });

  it('leads to sign-in when the network returns without the session', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();
    noNetwork();
    expect(await startOn(createQueryClient(() => undefined, noStaleAfter))).toBe('offline');

    mockApi({ 'POST /imauth/api/v1/refresh': () => apiError(401, 'No session.') });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(lost).toHaveBeenCalled());
  });

  it('keeps nothing of the previous user readable when another user signs in', async () => {
    await signedInPage(ALICE, randomSecret());
    closePage();
    await signedInPage(BOB, randomSecret());
    const database = await openDatabase();
    const alice = await ownerTag(ALICE.id);
    expect(await database.get('query-cache', alice)).toBeUndefined();
    expect(await liveStorageKey(database, alice, Date.now())).toBeUndefined();
    expect(await database.get('meta', 'last-session')).toMatchObject({ owner: await ownerTag(BOB.id) });
  });

  it('stores at once that what a change leaving the outbox showed must be read again', async () => {
    const queryClient = await signedInPage(ALICE, randomSecret());
    // A queued edit shown on the cached organization, as the organization screens do, then stored.
    queryClient.setQueryData(['organizations', 'detail', 'o1'], { name: 'Queued name' });
    await secure?.flush();
    const owner = await ownerTag(ALICE.id);
    const entry = {
      id: 'entry-1',
      sequence: 1,
      accountId: null,
      method: 'PUT',
      url: '/account/ui-api/v1/organizations/o1',
      body: { name: 'Queued name' },
      summary: 'Edit organization Acme',
      createdAt: '2026-11-20T09:30:00Z',
      attempts: 0,
      state: 'conflict',
      error: null,
      current: null,
    };
    const channel = new BroadcastChannel(OUTBOX_CHANNEL);
    channel.postMessage({ type: 'outbox', owner, entries: [entry] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Discarded: well before the write throttle, the stored organization is marked stale.
    channel.postMessage({ type: 'outbox', owner, entries: [] });
    channel.close();
    const database = await openDatabase();
    const stored = createSealedPersister({ database, owner, sealingKey: () => null });
    await vi.waitFor(
      async () => {
        const organization = (await stored.restoreClient())?.clientState.queries.find(
          (query) => query.queryHash === '["organizations","detail","o1"]',
        );
        expect(organization?.state.isInvalidated).toBe(true);
      },
      { timeout: PERSIST_THROTTLE_MS / 2 },
    );
  });

  it('on sign-out, destroys the key and then the cache, and tells the worker the choice', async () => {
    const posted: unknown[] = [];
    await signedInPage(ALICE, randomSecret());
    const restore = stubServiceWorker(posted);
    await session.closeOffline(false);
    restore();
    expect(posted).toContainEqual({ type: 'session-ended', userId: ALICE.id, keep: false });
    const database = await openDatabase();
    expect(await database.getAll('keys')).toEqual([]);
    expect(await database.getAll('query-cache')).toEqual([]);
  });
});
