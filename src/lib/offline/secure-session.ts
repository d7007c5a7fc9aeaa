import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import {
  liveStorageKey,
  type OfflineDatabase,
  ownerTag,
  type StorageKeyRecord,
} from '../../../contract/offline-storage.ts';
import { apiPaths, CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import { storageSecretSchema } from '../../../contract/schemas/identity.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import { getAccessToken } from '../access-token.ts';
import { apiRequest } from '../api-client.ts';
import {
  activeAccountIdOf,
  applicationsQueryOptions,
  isAccessQuery,
  permissionsQueryOptions,
  profileQueryOptions,
} from '../current-user.ts';
import { featureFlagsQueryOptions, isFeatureFlagsQuery } from '../feature-flags.ts';
import { offlineMaxAgeMs } from '../query-client.ts';
import type { SessionController } from '../session.ts';
import { type LoadStaleAfter, markStaleAfterChange } from '../stale-after-change.ts';
import { offlineDatabase, onOfflineDataDiscarded } from './database.ts';
import { connectOutbox, postOutboxCommand } from './outbox-client.ts';
import {
  createSealedPersister,
  type PersistSubscription,
  restorePersistedQueries,
  subscribePersistedQueries,
} from './persister.ts';
import { setOutboxOwner } from './queueable-request.ts';
import {
  createStorageKey,
  destroyOtherOwners,
  endOwnerSession,
  importStorageSecret,
  lastSessionOwner,
  pruneUnusedKeys,
  recordLastSession,
  reopenKeptKeys,
  sweepExpired,
} from './vault.ts';

/**
 * The secure layout's start (docs/decisions/013-offline-console.md, "Console side"): with a session,
 * the storage key of this sign-in, the restored cache and the outbox; without a network, the last
 * user's cached screens; when neither, sign-in or the offline page.
 */

/** The static page that says signing in needs a connection (served by the service worker). */
export const OFFLINE_PAGE_PATH = `${CONSOLE_BASE_PATH}/offline.html`;

/** Longest wait for the browser's database: a stuck one must not keep the console from starting. */
const DATABASE_TIMEOUT_MS = 3000;
/** How often expired keys are looked for, besides the moment the nearest one expires. */
const EXPIRY_CHECK_MS = 60_000;
/**
 * How soon an offline console tries the refresh cookie again, besides the browser's `online` event:
 * the wait doubles after every attempt the server did not answer, up to the ceiling, so a console left
 * open through a long outage does not keep knocking.
 */
const RECONNECT_MS = 30_000;
const RECONNECT_CEILING_MS = 10 * 60_000;

export type SecureStart =
  /** A session with the server. */
  | 'online'
  /** No server reachable: the last user's cached screens, without a token. */
  | 'offline'
  /** The server says there is no session: sign in. */
  | 'signed-out'
  /** No server, and nothing cached to show: the offline page. */
  | 'unavailable';

/** What the secure layout starts the offline support with. */
export interface SecureSessionSetup {
  /** The page's session with the platform, which the offline support plugs into. */
  controller: SessionController;
  queryClient: QueryClient;
  /**
   * Which cached queries a change leaving the outbox makes stale: the app's one table, which imports
   * every feature's query keys and so is fetched with the first change that lands, not with the
   * first screen.
   */
  loadStaleAfter: LoadStaleAfter;
}

interface ActiveSession extends SecureSessionSetup {
  userId: string;
  owner: string;
  mode: 'online' | 'offline';
  database: OfflineDatabase | null;
  /** The key new writes are sealed with; `null` once it expired or was destroyed. */
  key: StorageKeyRecord | null;
  persistence: PersistSubscription | null;
  disconnectOutbox: () => void;
  timers: ReturnType<typeof setInterval>[];
  stopReconnect: (() => void) | null;
}

let active: ActiveSession | null = null;
let starting: Promise<SecureStart> | null = null;

/** What the platform lets the user do, read from the server whenever it can be; the cache serves it offline. */
function isReadAtEveryStart(queryKey: readonly unknown[]): boolean {
  return isAccessQuery(queryKey) || isFeatureFlagsQuery(queryKey);
}

/**
 * Something the offline support tells the user, shown by whatever the screens use for notices. A
 * message, not a text: it may be raised while the start runs, before the console's texts have loaded.
 */
export interface OfflineNotice {
  type: 'info' | 'error';
  message: MessageDescriptor;
}
type NoticeListener = (notice: OfflineNotice) => void;

let noticeListener: NoticeListener | null = null;
/** Notices raised before the screens listen (the database is opened before the first screen draws). */
const heldNotices: OfflineNotice[] = [];

/**
 * Names what shows the offline support's notices; those raised before are shown now. The library
 * below the screens cannot import the screens' toast region (decision 002), so the secure layout
 * hands it one.
 */
export function showOfflineNoticesWith(listener: NoticeListener): void {
  noticeListener = listener;
  for (const notice of heldNotices.splice(0)) listener(notice);
}

function showNotice(type: OfflineNotice['type'], message: MessageDescriptor): void {
  if (noticeListener) noticeListener({ type, message });
  else heldNotices.push({ type, message });
}

onOfflineDataDiscarded(() =>
  showNotice(
    'info',
    msg`The data this browser kept for offline use could not be read and was reset. Nothing on the server was affected.`,
  ),
);

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

function openDatabase(): Promise<OfflineDatabase | null> {
  return withTimeout(offlineDatabase(), DATABASE_TIMEOUT_MS, null);
}

async function fetchStorageSecret(): Promise<string | null> {
  try {
    const { secret } = await apiRequest('GET', apiPaths.identity.storageSecret, {
      schema: storageSecretSchema,
    });
    return secret;
  } catch {
    return null;
  }
}

/**
 * The key new writes of the session are sealed with. The worker only takes changes of a user with a
 * live key, so queueable requests carry their outbox headers only while this page has one.
 */
function setSealingKey(session: ActiveSession, key: StorageKeyRecord | null): void {
  session.key = key;
  if (active === session) setOutboxOwner(key ? session.userId : null);
}

/** Stops what runs for the session in this page, without touching what is stored. */
function detach(session: ActiveSession): void {
  setOutboxOwner(null);
  session.persistence?.stop();
  session.disconnectOutbox();
  session.stopReconnect?.();
  for (const timer of session.timers) clearInterval(timer);
  if (active === session) active = null;
}

/**
 * The key of this sign-in: a fresh one wrapped with the user's storage secret, and the user's kept
 * keys reopened; without the secret (an older server, a failed call), the newest live key, if any.
 */
async function sealingKeyFor(
  database: OfflineDatabase,
  owner: string,
  asked: Promise<string | null> = fetchStorageSecret(),
): Promise<StorageKeyRecord | null> {
  const now = Date.now();
  const secret = await asked;
  if (!secret) return (await liveStorageKey(database, owner, now)) ?? null;
  const wrappingKey = await importStorageSecret(secret);
  const key = await createStorageKey(database, owner, wrappingKey, now, offlineMaxAgeMs());
  await reopenKeptKeys(database, owner, wrappingKey, now, offlineMaxAgeMs());
  await pruneUnusedKeys(database, owner, key.keyId);
  return key;
}

function planExpiry(session: ActiveSession): void {
  const check = async () => {
    if (!session.database || active !== session) return;
    const now = Date.now();
    await sweepExpired(session.database, now).catch(() => undefined);
    if (session.key && session.key.expiresAt <= now) {
      // The key of this sign-in outlived its time: new writes need a new one, if the session still has a token.
      setSealingKey(
        session,
        getAccessToken() ? await sealingKeyFor(session.database, session.owner).catch(() => null) : null,
      );
    }
  };
  session.timers.push(setInterval(() => void check(), EXPIRY_CHECK_MS));
}

function connect(session: ActiveSession): void {
  // What a change reaching the server changed, or what a discarded one showed on the cached data.
  const readAgain = (url: string) => {
    void session
      .loadStaleAfter()
      .then((table) => markStaleAfterChange(session.queryClient, table, url))
      // Its code out of reach (offline before the worker cached it): the screens read again when
      // their data goes stale, as without a change.
      .catch(() => undefined);
  };
  session.disconnectOutbox = connectOutbox({
    owner: session.owner,
    userId: session.userId,
    postSession: () => session.controller.postToWorker(),
    onSynced: readAgain,
    onDiscarded: readAgain,
    onQuotaExceeded: (summary) =>
      showNotice(
        'error',
        msg`The browser's storage is full: “${summary}” was not saved. Reconnect and make the change again.`,
      ),
  });
}

/** Sign-out or a lost session: tell the worker, destroy the key, then the data. */
async function teardown(keepOutbox: boolean): Promise<void> {
  const session = active;
  if (!session) return;
  detach(session);
  postOutboxCommand({ type: 'session-ended', userId: session.userId, keep: keepOutbox });
  session.controller.handOffTokenTo(null);
  session.controller.attachOffline(null);
  if (session.database) await endOwnerSession(session.database, session.owner, keepOutbox);
}

function persist(session: ActiveSession): void {
  if (!session.database) return;
  const persister = createSealedPersister({
    database: session.database,
    owner: session.owner,
    sealingKey: () => (active === session ? session.key : null),
  });
  const persistence = subscribePersistedQueries({ queryClient: session.queryClient, persister });
  // A tab closing or going to the background writes what is planned now rather than never.
  const flush = () => void persistence.flush();
  const onHidden = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onHidden);
  session.persistence = {
    flush: persistence.flush,
    stop: () => {
      persistence.stop();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
    },
  };
}

/** Writes the cache of the current session now instead of after the throttle. */
export async function flushOfflineCache(): Promise<void> {
  await active?.persistence?.flush();
}

function newSession(
  setup: SecureSessionSetup,
  profile: Pick<Profile, 'id'>,
  owner: string,
  database: OfflineDatabase | null,
  mode: ActiveSession['mode'],
): ActiveSession {
  return {
    ...setup,
    userId: profile.id,
    owner,
    mode,
    database,
    key: null,
    persistence: null,
    disconnectOutbox: () => undefined,
    timers: [],
    stopReconnect: null,
  };
}

/** With a token: whose session it is, their key, their cache and their outbox. */
async function beginOnline(setup: SecureSessionSetup): Promise<SecureStart> {
  const { queryClient } = setup;
  const startedAt = Date.now();
  // What does not depend on who the user is goes out with the profile, in one round trip: the storage
  // secret and the feature flags (docs/decisions/026-start-up-round-trips.md).
  const secret = fetchStorageSecret();
  const [profile, database] = await Promise.all([
    queryClient.ensureQueryData(profileQueryOptions()).catch(() => null),
    openDatabase(),
    queryClient.prefetchQuery(featureFlagsQueryOptions()),
  ]);
  // Without a profile the layout's loader reports the failure; the offline support waits for a next start.
  if (!profile) return 'online';
  setup.controller.handOffTokenTo(profile.id);
  const owner = await ownerTag(profile.id);
  const session = newSession(setup, profile, owner, database, 'online');
  if (database) {
    try {
      await sweepExpired(database, Date.now());
      await destroyOtherOwners(database, owner);
      const persister = createSealedPersister({ database, owner, sealingKey: () => null });
      await restorePersistedQueries({ queryClient, persister, maxAgeMs: offlineMaxAgeMs() });
      // Restored copies go; what this start has just read (the feature flags) stays.
      queryClient.removeQueries({
        predicate: (query) => isReadAtEveryStart(query.queryKey) && query.state.dataUpdatedAt < startedAt,
      });
      prefetchAccess(queryClient, profile);
      session.key = await sealingKeyFor(database, owner, secret);
      await recordLastSession(database, owner, Date.now());
    } catch {
      session.database = null;
    }
  }
  // Without a database nothing was restored, and a failed restore may not have reached the call above.
  if (!session.database) prefetchAccess(queryClient, profile);
  adopt(session);
  return 'online';
}

/**
 * The user's permissions and applications in the active account, asked as soon as the profile has
 * named them and the restored copies are gone, rather than by the layout's loader after the storage
 * key is made; the loader then finds them on their way. A second call shares the first's requests
 * (or finds their answers fresh).
 */
function prefetchAccess(queryClient: QueryClient, profile: Profile): void {
  const accountId = activeAccountIdOf(profile);
  void queryClient.prefetchQuery(permissionsQueryOptions(profile.access_scope, accountId));
  void queryClient.prefetchQuery(applicationsQueryOptions(accountId));
}

function adopt(session: ActiveSession): void {
  active = session;
  setSealingKey(session, session.key);
  persist(session);
  connect(session);
  planExpiry(session);
  session.controller.attachOffline({ teardown, unreachable: () => goOffline(session) });
  if (session.mode === 'offline') watchForServer(session);
}

/** Whether the restored cache can draw the secure layout for this user without the server. */
function canDrawLayout(queryClient: QueryClient, profile: Profile): boolean {
  const accountId = activeAccountIdOf(profile);
  return (
    queryClient.getQueryData(permissionsQueryOptions(profile.access_scope, accountId).queryKey) !==
      undefined && queryClient.getQueryData(applicationsQueryOptions(accountId).queryKey) !== undefined
  );
}

/** No server: the last user's cache, if this browser still holds a readable one. */
async function beginOffline(setup: SecureSessionSetup): Promise<SecureStart> {
  const { queryClient } = setup;
  const database = await openDatabase();
  if (!database) return 'unavailable';
  const now = Date.now();
  await sweepExpired(database, now).catch(() => undefined);
  const owner = await lastSessionOwner(database);
  if (!owner) return 'unavailable';
  const persister = createSealedPersister({ database, owner, sealingKey: () => null });
  await restorePersistedQueries({ queryClient, persister, maxAgeMs: offlineMaxAgeMs() });
  const profile = queryClient.getQueryData(profileQueryOptions().queryKey);
  if (!profile || (await ownerTag(profile.id)) !== owner || !canDrawLayout(queryClient, profile)) {
    queryClient.clear();
    return 'unavailable';
  }
  // The server is out of reach even if the browser thinks it is online: queries wait, nothing spins.
  onlineManager.setOnline(false);
  const session = newSession(setup, profile, owner, database, 'offline');
  session.key = (await liveStorageKey(database, owner, now)) ?? null;
  adopt(session);
  return 'offline';
}

/** A refresh found no server while a session was open: carry on from the cache until it returns. */
function goOffline(session: ActiveSession): void {
  if (active !== session || session.mode === 'offline') return;
  session.mode = 'offline';
  onlineManager.setOnline(false);
  watchForServer(session);
}

/**
 * Tries the refresh cookie when the network may be back: renewed, the session goes on online with a
 * new key; refused, the user signs in as after any lost session (their queued changes held).
 */
function watchForServer(session: ActiveSession): void {
  let trying = false;
  let wait = RECONNECT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const planNext = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void attempt(), wait);
    wait = Math.min(RECONNECT_CEILING_MS, wait * 2);
  };
  const attempt = async () => {
    if (trying || active !== session) return;
    trying = true;
    try {
      const outcome = await session.controller.refresh();
      if (active !== session) return;
      // The browser may say it is online while the server is still out of reach: queries keep waiting.
      if (outcome === 'unreachable') {
        onlineManager.setOnline(false);
        planNext();
        return;
      }
      stop();
      if (outcome === 'refused') {
        session.controller.reportLost();
        return;
      }
      await backOnline(session);
    } finally {
      trying = false;
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') void attempt();
  };
  planNext();
  const onOnline = () => void attempt();
  window.addEventListener('online', onOnline);
  window.addEventListener('focus', onOnline);
  document.addEventListener('visibilitychange', onVisible);
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener('online', onOnline);
    window.removeEventListener('focus', onOnline);
    document.removeEventListener('visibilitychange', onVisible);
    session.stopReconnect = null;
  };
  session.stopReconnect = stop;
}

/**
 * The refresh cookie worked again. Whose session it is decides: the same user carries on with a new
 * key; another user (the cookie of a later sign-in elsewhere in this browser) starts afresh.
 */
async function backOnline(session: ActiveSession): Promise<void> {
  const { queryClient } = session;
  onlineManager.setOnline(true);
  const profile = await queryClient.fetchQuery({ ...profileQueryOptions(), staleTime: 0 }).catch(() => null);
  if (!profile || active !== session) return;
  if (profile.id !== session.userId) {
    await teardown(true);
    window.location.reload();
    return;
  }
  session.mode = 'online';
  session.controller.handOffTokenTo(profile.id);
  void queryClient.invalidateQueries({ predicate: (query) => isReadAtEveryStart(query.queryKey) });
  if (session.database) {
    setSealingKey(session, await sealingKeyFor(session.database, session.owner).catch(() => session.key));
    await recordLastSession(session.database, session.owner, Date.now()).catch(() => undefined);
  }
}

/**
 * Called by the secure layout before any of its screens loads; quick once the session has started.
 * Concurrent calls (navigation and preloading) share one start.
 */
export function startSecureSession(setup: SecureSessionSetup): Promise<SecureStart> {
  starting ??= start(setup).finally(() => {
    starting = null;
  });
  return starting;
}

async function start(setup: SecureSessionSetup): Promise<SecureStart> {
  // A session of another client (a test, a rebuilt router) is let go; the stored data stays.
  if (active && active.queryClient !== setup.queryClient) detach(active);
  if (getAccessToken() !== null) {
    if (active?.mode === 'online') return 'online';
    if (!active) return beginOnline(setup);
    // Offline until now, and a token has come (a sign-in, or a refresh elsewhere in this page).
    await backOnline(active);
    return 'online';
  }
  if (active?.mode === 'offline') return 'offline';
  const outcome = await setup.controller.check();
  if (outcome === 'renewed') {
    if (active) {
      await backOnline(active);
      return 'online';
    }
    return beginOnline(setup);
  }
  if (outcome === 'refused') return 'signed-out';
  if (active) {
    goOffline(active);
    return 'offline';
  }
  return beginOffline(setup);
}

/** Leaves the offline start for the static offline page; the promise never settles, the page goes. */
export function showOfflinePage(): Promise<never> {
  window.location.replace(OFFLINE_PAGE_PATH);
  return new Promise(() => undefined);
}

/** For tests: forget this page's session without touching what is stored. */
export function resetSecureSession(): void {
  if (active) detach(active);
  starting = null;
}
