import {
  type FetchQueryOptions,
  MutationCache,
  onlineManager,
  QueryCache,
  QueryClient,
  type QueryFunction,
  type QueryKey,
} from '@tanstack/react-query';
import { ApiError, OfflineError } from './api-client.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorToast: false` for mutations whose form shows its own error (sign-in, setup). */
    mutationMeta: { errorToast?: boolean };
    /**
     * `persist: false` for answers that must never reach the browser's storage: anything carrying a
     * secret (licence text, tokens, client secrets) or an answer that must never be served stale.
     */
    queryMeta: { persist?: boolean };
  }
}

/** Every query of the selected account sits under this prefix, so switching accounts refetches them. */
export const ACCOUNT_SCOPED_KEY = ['account-scoped'] as const;

const DEFAULT_OFFLINE_MAX_AGE_HOURS = 72;

/**
 * How long data kept for offline use stays usable, and its storage key with it:
 * `VITE_OFFLINE_MAX_AGE_HOURS` at build time, 72 hours unless set.
 */
export function offlineMaxAgeMs(): number {
  const configured = Number(import.meta.env.VITE_OFFLINE_MAX_AGE_HOURS);
  const hours = Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_OFFLINE_MAX_AGE_HOURS;
  return hours * 60 * 60 * 1000;
}

/** A 401 has already ended the session and left the page; a toast about it would be noise. */
function isSessionEnd(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * While offline, a fetch would wait for the network (and a loader with it) for as long as the
 * connection is gone. Instead, what is cached is answered as it is, and what is not fails at once with
 * an `OfflineError` recorded on the query, so the screen shows its error page rather than a spinner.
 */
function answerFromCacheWhileOffline(client: QueryClient): void {
  const fetchQuery = client.fetchQuery.bind(client);
  const offlineAware = <T, TKey extends QueryKey>(options: FetchQueryOptions<T, Error, T, TKey>) => {
    if (onlineManager.isOnline()) return fetchQuery(options);
    const cached = client.getQueryData<T>(options.queryKey);
    if (cached !== undefined) return Promise.resolve(cached);
    const queryFn = options.queryFn;
    const guarded: QueryFunction<T, TKey> = (context) =>
      onlineManager.isOnline() && typeof queryFn === 'function'
        ? queryFn(context)
        : Promise.reject(new OfflineError());
    return fetchQuery({ ...options, queryFn: guarded, networkMode: 'always', retry: false });
  };
  client.fetchQuery = offlineAware as unknown as QueryClient['fetchQuery'];
}

/**
 * `notify` shows failures that no screen shows itself: mutations (unless they opt out) and
 * background refetches of data already on screen. A first load's failure belongs to its route.
 */
export function createQueryClient(notify: (error: unknown) => void): QueryClient {
  // The query library assumes a connection until the first `offline` event; a start without one is offline.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
  const client = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        // Offline, the data on screen is what there is; the offline notice already says so.
        if (!onlineManager.isOnline() || error instanceof OfflineError) return;
        if (query.state.data !== undefined && !isSessionEnd(error)) notify(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.errorToast !== false && !isSessionEnd(error)) notify(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Kept in memory as long as it may be kept for offline use, so the stored copy keeps it too.
        gcTime: offlineMaxAgeMs(),
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: {
        // The service worker's outbox is the one queue of offline changes: a mutation is always sent,
        // and the worker keeps a queueable one when there is no network (docs/decisions/013).
        networkMode: 'always',
      },
    },
  });
  answerFromCacheWhileOffline(client);
  return client;
}
