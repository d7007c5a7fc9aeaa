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
import { type LoadStaleAfter, staleAfterMutation } from './stale-after-change.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /**
     * `errorToast: false` for mutations whose form shows its own error (sign-in, setup). `changes`:
     * the API path a change is sent to, which decides what its success makes stale
     * (`lib/stale-after-change.ts`).
     */
    mutationMeta: { errorToast?: boolean; changes?: string };
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
 * What a route loader reads for its screen: the cached answer, else the server's. Offline, a fetch
 * would wait for the network (and the loader with it) for as long as the connection is gone; instead
 * what is cached is answered as it is, and what is not fails at once with an `OfflineError` recorded
 * on the query, so the screen shows its error page rather than a spinner.
 */
function loadForScreen<T, TKey extends QueryKey>(
  client: QueryClient,
  options: FetchQueryOptions<T, Error, T, TKey>,
): Promise<T> {
  if (onlineManager.isOnline()) return client.ensureQueryData(options);
  const cached = client.getQueryData<T>(options.queryKey);
  if (cached !== undefined) return Promise.resolve(cached);
  const queryFn = options.queryFn;
  const guarded: QueryFunction<T, TKey> = (context) =>
    onlineManager.isOnline() && typeof queryFn === 'function'
      ? queryFn(context)
      : Promise.reject(new OfflineError());
  return client.fetchQuery({ ...options, queryFn: guarded, networkMode: 'always', retry: false });
}

/**
 * How route loaders read their screen's data, handed to them in the router context by the secure
 * layout (so route definitions, which load with the sign-in page, do not import the query library).
 */
export interface ScreenData {
  /** The cached answer, else the server's; offline, never-loaded data fails at once (`loadForScreen`). */
  load<T, TKey extends QueryKey>(options: FetchQueryOptions<T, Error, T, TKey>): Promise<T>;
  /**
   * The same for a loader that leaves a failure to its screen (which reads it from the query): online
   * it fetches what is stale, as `prefetchQuery` does; it never rejects.
   */
  preload<T, TKey extends QueryKey>(options: FetchQueryOptions<T, Error, T, TKey>): Promise<void>;
  /**
   * `preload` for an edit form: online the version the server has now, however fresh the cached one
   * looks, so a form opened after a colleague's save starts from it instead of failing with 412;
   * offline the cached one, which the form says is as of its time.
   */
  preloadCurrent<T, TKey extends QueryKey>(options: FetchQueryOptions<T, Error, T, TKey>): Promise<void>;
}

export function screenDataOf(client: QueryClient): ScreenData {
  const preload: ScreenData['preload'] = async (options) => {
    const load = onlineManager.isOnline() ? client.fetchQuery(options) : loadForScreen(client, options);
    await load.catch(() => undefined);
  };
  return {
    load: (options) => loadForScreen(client, options),
    preload,
    preloadCurrent: (options) => preload({ ...options, staleTime: 0 }),
  };
}

/**
 * `notify` shows failures that no screen shows itself: mutations (unless they opt out) and
 * background refetches of data already on screen. A first load's failure belongs to its route.
 * `loadStaleAfter` is the app's table of what a change makes stale.
 */
export function createQueryClient(
  notify: (error: unknown) => void,
  loadStaleAfter: LoadStaleAfter,
): QueryClient {
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
      onSettled: staleAfterMutation(loadStaleAfter),
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
  return client;
}
