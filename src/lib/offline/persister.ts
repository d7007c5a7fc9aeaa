import {
  type PersistedClient,
  type Persister,
  persistQueryClientRestore,
  persistQueryClientSave,
} from '@tanstack/query-persist-client-core';
import type { DehydrateOptions, Query, QueryClient } from '@tanstack/react-query';
import {
  type OfflineDatabase,
  openSealedJson,
  type StorageKeyRecord,
  sealJson,
} from '../../../contract/offline-storage.ts';

/**
 * The query cache kept for offline use: dehydrated, sealed with the user's live storage key and
 * stored under the user's owner tag in the shared database (docs/decisions/013-offline-console.md).
 */

/**
 * What tells one build's cache from another's: `VITE_BUILD_ID` when the build sets it, else the
 * address of the entry script, whose name carries the hash of the whole build. Data shaped by an
 * older build (its schemas, its `select`s) is discarded instead of reaching the new screens.
 */
export function buildId(): string {
  const configured = import.meta.env.VITE_BUILD_ID;
  if (typeof configured === 'string' && configured !== '') return configured;
  const entry =
    typeof document !== 'undefined'
      ? document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src')
      : null;
  return entry ?? import.meta.env.MODE;
}

/**
 * Only answers that loaded, and never one marked `persist: false` (anything with a secret). Failed
 * and pending queries are left out too; mutations are the outbox's business, not the cache's.
 */
export const persistDehydrateOptions: DehydrateOptions = {
  shouldDehydrateQuery: (query: Query) => query.state.status === 'success' && query.meta?.persist !== false,
  shouldDehydrateMutation: () => false,
};

interface SealedPersisterOptions {
  database: OfflineDatabase;
  owner: string;
  /** The key to seal new writes with; `null` once destroyed, and writes then stop. */
  sealingKey: () => StorageKeyRecord | null;
  now?: () => number;
}

function isPersistedClient(value: unknown): value is PersistedClient {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<PersistedClient>;
  return (
    typeof candidate.timestamp === 'number' &&
    typeof candidate.buster === 'string' &&
    typeof candidate.clientState === 'object' &&
    candidate.clientState !== null &&
    Array.isArray(candidate.clientState.queries)
  );
}

/**
 * A `Persister` on the `query-cache` store. Restoring opens the record with the key it names; a record
 * whose key is gone, expired or wrong, or whose content is not a persisted client, is deleted and
 * nothing is restored.
 */
export function createSealedPersister({
  database,
  owner,
  sealingKey,
  now = Date.now,
}: SealedPersisterOptions): Persister {
  return {
    persistClient: async (client) => {
      const record = sealingKey();
      if (!record?.key) return;
      const sealed = await sealJson(record.key, client);
      // Destroyed meanwhile, here or by another tab (sign-out, another user's sign-in, expiry):
      // write nothing the stored key can no longer vouch for.
      if (sealingKey()?.keyId !== record.keyId) return;
      const stored = await database.get('keys', record.keyId);
      if (!stored?.key || stored.expiresAt <= now()) return;
      await database.put('query-cache', { owner, keyId: record.keyId, savedAt: now(), sealed });
    },
    restoreClient: async () => {
      const stored = await database.get('query-cache', owner);
      if (!stored) return undefined;
      const keyRecord = await database.get('keys', stored.keyId);
      const opened =
        keyRecord?.key && keyRecord.expiresAt > now()
          ? await openSealedJson(keyRecord.key, stored.sealed)
          : undefined;
      if (isPersistedClient(opened)) return opened;
      await database.delete('query-cache', owner);
      return undefined;
    },
    removeClient: async () => {
      await database.delete('query-cache', owner);
    },
  };
}

export interface PersistOptions {
  queryClient: QueryClient;
  persister: Persister;
  maxAgeMs: number;
  buster?: string;
}

/**
 * Restores the cache (before the secure screens render) with the library's
 * `persistQueryClientRestore`: a client older than `maxAgeMs`, of another build, or that fails to
 * restore is removed instead. Answers whether a client reached the cache.
 */
export async function restorePersistedQueries({
  queryClient,
  persister,
  maxAgeMs,
  buster = buildId(),
}: PersistOptions): Promise<boolean> {
  let restored = false;
  const observed: Persister = {
    persistClient: (client) => persister.persistClient(client),
    restoreClient: async () => {
      const client = await persister.restoreClient();
      restored = client !== undefined;
      return client;
    },
    removeClient: async () => {
      restored = false;
      await persister.removeClient();
    },
  };
  try {
    await persistQueryClientRestore({ queryClient, persister: observed, maxAge: maxAgeMs, buster });
    return restored;
  } catch {
    // The library has removed the unreadable client already; the console starts without it.
    return false;
  }
}

/** Saves the cache now with the library's `persistQueryClientSave`, secrets and failures left out. */
export function savePersistedQueries({
  queryClient,
  persister,
  buster = buildId(),
}: Omit<PersistOptions, 'maxAgeMs'>): Promise<void> {
  return persistQueryClientSave({
    queryClient,
    persister,
    buster,
    dehydrateOptions: persistDehydrateOptions,
  });
}

/** Fewest milliseconds between two writes: a burst of cache events makes one write. */
export const PERSIST_THROTTLE_MS = 1000;

export interface PersistSubscription {
  /** Stops writing; a write already planned is dropped. */
  stop: () => void;
  /** Writes now what is planned (before leaving the page, and in tests). */
  flush: () => Promise<void>;
}

/**
 * Saves the cache after changes, at most once per `throttleMs`. The library's own subscription saves
 * on every cache event; dehydrating and sealing the whole cache for each would cost more than the
 * events themselves. An invalidation is saved at once (a burst of them in one write): until the
 * stored copy says so, a reload would restore what a change made stale as fresh data.
 */
export function subscribePersistedQueries(
  { queryClient, persister, buster = buildId() }: Omit<PersistOptions, 'maxAgeMs'>,
  throttleMs = PERSIST_THROTTLE_MS,
): PersistSubscription {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let writing: Promise<void> = Promise.resolve();

  const save = () => {
    timer = null;
    if (stopped) return writing;
    writing = writing
      .then(() => savePersistedQueries({ queryClient, persister, buster }))
      .catch(() => undefined);
    return writing;
  };
  let timerDelay = 0;
  const plan = (delay: number) => {
    if (stopped || (timer !== null && timerDelay <= delay)) return;
    if (timer !== null) clearTimeout(timer);
    timerDelay = delay;
    timer = setTimeout(() => void save(), delay);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'invalidate') plan(0);
    else if (event.type === 'added' || event.type === 'removed' || event.type === 'updated') plan(throttleMs);
  });
  return {
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      unsubscribe();
    },
    flush: async () => {
      if (timer !== null) clearTimeout(timer);
      await save();
    },
  };
}
