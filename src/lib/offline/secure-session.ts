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
import type { SessionController, SessionState } from '../session.ts';
import { type LoadStaleAfter, markStaleAfterChange } from '../stale-after-change.ts';
import { DatabaseHandle } from './database.ts';
import { Outbox, postOutboxCommand } from './outbox-client.ts';
import {
  createSealedPersister,
  type PersistSubscription,
  restorePersistedQueries,
  subscribePersistedQueries,
} from './persister.ts';
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
const OFFLINE_PAGE_PATH = `${CONSOLE_BASE_PATH}/offline.html`;

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

/**
 * Something the offline support tells the user, shown by whatever the screens use for notices. A
 * message, not a text: it may be raised while the start runs, before the console's texts have loaded.
 */
export interface OfflineNotice {
  type: 'info' | 'error';
  message: MessageDescriptor;
}

/** What the offline support (`support.ts`) makes the secure sessions of its page with. */
export interface SecureSessionsSetup {
  /** The page's session with the platform, whose state says whether the console is offline. */
  controller: SessionController;
  queryClient: QueryClient;
  /**
   * Which cached queries a change leaving the outbox makes stale: the app's one table, which imports
   * every feature's query keys and so is fetched with the first change that lands, not with the
   * first screen.
   */
  loadStaleAfter: LoadStaleAfter;
  /**
   * Shows a notice. The library below the screens cannot import the screens' toast region (decision
   * 002), so main.tsx hands one.
   */
  notify: (notice: OfflineNotice) => void;
}

interface ActiveSession {
  userId: string;
  owner: string;
  database: OfflineDatabase | null;
  /** The key new writes are sealed with; `null` once it expired or was destroyed. */
  key: StorageKeyRecord | null;
  persistence: PersistSubscription | null;
  disconnectOutbox: () => void;
  timers: ReturnType<typeof setInterval>[];
  stopReconnect: (() => void) | null;
  /** The return from the last offline spell (a new key, whose session it is); settled when none. */
  returning: Promise<void>;
}

/** What the platform lets the user do, read from the server whenever it can be; the cache serves it offline. */
function isReadAtEveryStart(queryKey: readonly unknown[]): boolean {
  return isAccessQuery(queryKey) || isFeatureFlagsQuery(queryKey);
}

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

function newSession(
  profile: Pick<Profile, 'id'>,
  owner: string,
  database: OfflineDatabase | null,
): ActiveSession {
  return {
    userId: profile.id,
    owner,
    database,
    key: null,
    persistence: null,
    disconnectOutbox: () => undefined,
    timers: [],
    stopReconnect: null,
    returning: Promise.resolve(),
  };
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

/** Whether the restored cache can draw the secure layout for this user without the server. */
function canDrawLayout(queryClient: QueryClient, profile: Profile): boolean {
  const accountId = activeAccountIdOf(profile);
  return (
    queryClient.getQueryData(permissionsQueryOptions(profile.access_scope, accountId).queryKey) !==
      undefined && queryClient.getQueryData(applicationsQueryOptions(accountId).queryKey) !== undefined
  );
}

/**
 * The secure sessions of one page, one at a time, and their start: made by the offline support
 * (`support.ts`) when the secure layout first starts, with the page's session controller and query
 * client. Whether the console is offline is the controller's state alone: the sessions follow it.
 */
/** What the secure layout imports for the offline support (`OfflineSupport.load`). */
export interface SecureSessionsModule {
  SecureSessions: typeof SecureSessions;
}

export class SecureSessions {
  /** The signed-in user's outbox, which the secure layout gives its screens. */
  readonly outbox = new Outbox();
  #active: ActiveSession | null = null;
  #starting: Promise<SecureStart> | null = null;
  readonly #database: DatabaseHandle;

  constructor(private readonly setup: SecureSessionsSetup) {
    this.#database = new DatabaseHandle(() =>
      setup.notify({
        type: 'info',
        message: msg`The data this browser kept for offline use could not be read and was reset. Nothing on the server was affected.`,
      }),
    );
    const { controller } = setup;
    controller.watch((state, previous) => this.#follow(state, previous));
    // The session may have gone offline before these sessions were made (the layout's cookie check).
    this.#follow(controller.state, controller.state);
  }

  /**
   * The one place the session's state reaches the query library and the active session: offline,
   * queries wait rather than fail (also after a browser `online` event the server did not confirm)
   * and the server is looked for; back online, they run again and the session takes a new key.
   */
  #follow(state: SessionState, previous: SessionState): void {
    if (state === 'offline') onlineManager.setOnline(false);
    else if (state === 'online' && previous !== 'online') onlineManager.setOnline(true);
    const session = this.#active;
    if (!session) return;
    if (state === 'offline' && !session.stopReconnect) this.#watchForServer(session);
    else if (state === 'online' && previous === 'offline') {
      session.stopReconnect?.();
      session.returning = this.#backOnline(session);
    }
  }

  /**
   * Called by the secure layout before any of its screens loads; quick once the session has started.
   * Concurrent calls (navigation and preloading) share one start.
   */
  start(): Promise<SecureStart> {
    this.#starting ??= this.#start().finally(() => {
      this.#starting = null;
    });
    return this.#starting;
  }

  /** Whether a session runs here to carry on from the cache when a renewal finds no server. */
  carriesOn(): boolean {
    return this.#active !== null;
  }

  /** Sign-out or a lost session: tell the worker, destroy the key, then the data. */
  async close(keepOutbox: boolean): Promise<void> {
    const session = this.#active;
    if (!session) return;
    this.#detach(session);
    postOutboxCommand({ type: 'session-ended', userId: session.userId, keep: keepOutbox });
    this.setup.controller.handOffTokenTo(null);
    if (session.database) await endOwnerSession(session.database, session.owner, keepOutbox);
  }

  /** Writes the cache of the current session now instead of after the throttle. */
  async flush(): Promise<void> {
    await this.#active?.persistence?.flush();
  }

  /** Stops what runs for the session in this page without touching what is stored, as a closing page does. */
  stop(): void {
    if (this.#active) this.#detach(this.#active);
    this.#starting = null;
  }

  /** Leaves the offline start for the static offline page; the promise never settles, the page goes. */
  showOfflinePage(): Promise<never> {
    window.location.replace(OFFLINE_PAGE_PATH);
    return new Promise(() => undefined);
  }

  async #start(): Promise<SecureStart> {
    const { controller } = this.setup;
    const active = this.#active;
    if (getAccessToken() !== null) {
      if (!active) return this.#beginOnline();
      // Offline until moments ago, and a token has come (a sign-in, or a refresh elsewhere in this page).
      await active.returning;
      return 'online';
    }
    if (active && controller.state === 'offline') return 'offline';
    const outcome = await controller.check();
    if (outcome === 'refused') return 'signed-out';
    if (outcome === 'renewed') {
      if (!active) return this.#beginOnline();
      await active.returning;
      return 'online';
    }
    // The check left the session offline, and a running one carries on from its cache with it.
    return active ? 'offline' : this.#beginOffline();
  }

  #openDatabase(): Promise<OfflineDatabase | null> {
    return withTimeout(this.#database.open(), DATABASE_TIMEOUT_MS, null);
  }

  /**
   * The key new writes of the session are sealed with. The worker only takes changes of a user with a
   * live key, so queueable requests carry their outbox headers only while this page has one.
   */
  #setSealingKey(session: ActiveSession, key: StorageKeyRecord | null): void {
    session.key = key;
    if (this.#active === session) this.outbox.keepChangesOf(key ? session.userId : null);
  }

  /** Stops what runs for the session in this page, without touching what is stored. */
  #detach(session: ActiveSession): void {
    this.outbox.keepChangesOf(null);
    session.persistence?.stop();
    session.disconnectOutbox();
    session.stopReconnect?.();
    for (const timer of session.timers) clearInterval(timer);
    if (this.#active === session) this.#active = null;
  }

  #planExpiry(session: ActiveSession): void {
    const check = async () => {
      if (!session.database || this.#active !== session) return;
      const now = Date.now();
      await sweepExpired(session.database, now).catch(() => undefined);
      if (session.key && session.key.expiresAt <= now) {
        // The key of this sign-in outlived its time: new writes need a new one, if the session still has a token.
        this.#setSealingKey(
          session,
          getAccessToken() ? await sealingKeyFor(session.database, session.owner).catch(() => null) : null,
        );
      }
    };
    session.timers.push(setInterval(() => void check(), EXPIRY_CHECK_MS));
  }

  #connect(session: ActiveSession): void {
    const { controller, queryClient, loadStaleAfter, notify } = this.setup;
    // What a change reaching the server changed, or what a discarded one showed on the cached data.
    const readAgain = (url: string) => {
      void loadStaleAfter()
        .then((table) => markStaleAfterChange(queryClient, table, url))
        // Its code out of reach (offline before the worker cached it): the screens read again when
        // their data goes stale, as without a change.
        .catch(() => undefined);
    };
    session.disconnectOutbox = this.outbox.connect({
      owner: session.owner,
      userId: session.userId,
      postSession: () => controller.postToWorker(),
      onSynced: readAgain,
      onDiscarded: readAgain,
      onQuotaExceeded: (summary) =>
        notify({
          type: 'error',
          message: msg`The browser's storage is full: “${summary}” was not saved. Reconnect and make the change again.`,
        }),
    });
  }

  #persist(session: ActiveSession): void {
    if (!session.database) return;
    const persister = createSealedPersister({
      database: session.database,
      owner: session.owner,
      sealingKey: () => (this.#active === session ? session.key : null),
    });
    const persistence = subscribePersistedQueries({ queryClient: this.setup.queryClient, persister });
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

  /** With a token: whose session it is, their key, their cache and their outbox. */
  async #beginOnline(): Promise<SecureStart> {
    const { queryClient, controller } = this.setup;
    const startedAt = Date.now();
    // What does not depend on who the user is goes out with the profile, in one round trip: the storage
    // secret and the feature flags (docs/decisions/026-start-up-round-trips.md).
    const secret = fetchStorageSecret();
    const [profile, database] = await Promise.all([
      queryClient.ensureQueryData(profileQueryOptions()).catch(() => null),
      this.#openDatabase(),
      queryClient.prefetchQuery(featureFlagsQueryOptions()),
    ]);
    // Without a profile the layout's loader reports the failure; the offline support waits for a next start.
    if (!profile) return 'online';
    controller.handOffTokenTo(profile.id);
    const owner = await ownerTag(profile.id);
    const session = newSession(profile, owner, database);
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
    this.#adopt(session);
    return 'online';
  }

  #adopt(session: ActiveSession): void {
    this.#active = session;
    this.#setSealingKey(session, session.key);
    this.#persist(session);
    this.#connect(session);
    this.#planExpiry(session);
    if (this.setup.controller.state === 'offline') this.#watchForServer(session);
  }

  /** No server: the last user's cache, if this browser still holds a readable one. */
  async #beginOffline(): Promise<SecureStart> {
    const { queryClient } = this.setup;
    const database = await this.#openDatabase();
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
    const session = newSession(profile, owner, database);
    session.key = (await liveStorageKey(database, owner, now)) ?? null;
    this.#adopt(session);
    return 'offline';
  }

  /**
   * Tries the refresh cookie when the network may be back: renewed, the session is online again and
   * `#follow` brings this one back; refused, the user signs in as after any lost session (their
   * queued changes held).
   */
  #watchForServer(session: ActiveSession): void {
    const { controller } = this.setup;
    let trying = false;
    let wait = RECONNECT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const planNext = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void attempt(), wait);
      wait = Math.min(RECONNECT_CEILING_MS, wait * 2);
    };
    const attempt = async () => {
      if (trying || this.#active !== session) return;
      trying = true;
      try {
        const outcome = await controller.refresh();
        if (this.#active !== session) return;
        if (outcome === 'unreachable') {
          planNext();
          return;
        }
        stop();
        if (outcome === 'refused') controller.reportLost();
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
   * The session is online again. Whose session it is decides: the same user carries on with a new
   * key; another user (the cookie of a later sign-in elsewhere in this browser) starts afresh.
   */
  async #backOnline(session: ActiveSession): Promise<void> {
    const { queryClient, controller } = this.setup;
    const profile = await queryClient
      .fetchQuery({ ...profileQueryOptions(), staleTime: 0 })
      .catch(() => null);
    if (!profile || this.#active !== session) return;
    if (profile.id !== session.userId) {
      await this.close(true);
      window.location.reload();
      return;
    }
    controller.handOffTokenTo(profile.id);
    void queryClient.invalidateQueries({ predicate: (query) => isReadAtEveryStart(query.queryKey) });
    if (session.database) {
      this.#setSealingKey(
        session,
        await sealingKeyFor(session.database, session.owner).catch(() => session.key),
      );
      await recordLastSession(session.database, session.owner, Date.now()).catch(() => undefined);
    }
  }
}
