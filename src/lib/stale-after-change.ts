import type { MutationCacheConfig, QueryClient, QueryKey } from '@tanstack/react-query';
import { isQueued } from '../../contract/outbox.ts';

/**
 * Which cached queries a change makes stale, declared once per domain beside its query keys (the
 * `…StaleAfter` of a feature's `queries.ts`) and gathered by the app in one table
 * (`routes/-stale-after-change.ts`): a change that succeeds online (its mutation names its API path
 * in `meta.changes`) and a queued one that leaves the outbox make the same queries stale, whichever
 * feature modules happen to have loaded.
 */
export interface StaleAfterChange {
  /** The API paths of the changes: a prefix, or a pattern where a prefix would take in another domain's. */
  paths: string | RegExp;
  queryKeys: readonly QueryKey[];
}

/** The app's table, loaded with the first change rather than with the first screen. */
export type LoadStaleAfter = () => Promise<readonly StaleAfterChange[]>;

function changesPath(paths: StaleAfterChange['paths'], path: string): boolean {
  return typeof paths === 'string' ? path.startsWith(paths) : paths.test(path);
}

/** The query keys a change of `url` (path and query, or an absolute URL) makes stale. */
export function queryKeysStaleAfter(table: readonly StaleAfterChange[], url: string): QueryKey[] {
  const path = new URL(url, 'http://console.invalid').pathname;
  return table.filter((entry) => changesPath(entry.paths, path)).flatMap((entry) => entry.queryKeys);
}

/**
 * Marks stale (and reads again, where on screen) what a change of `url` made stale. An answer read
 * since `changedAt` already shows the change: the object a creation answered, or what the mutation
 * read again itself.
 */
export async function markStaleAfterChange(
  queryClient: QueryClient,
  table: readonly StaleAfterChange[],
  url: string,
  changedAt = Number.POSITIVE_INFINITY,
): Promise<void> {
  await Promise.all(
    queryKeysStaleAfter(table, url).map((queryKey) =>
      queryClient.invalidateQueries({
        queryKey,
        predicate: (query) => query.state.dataUpdatedAt < changedAt,
      }),
    ),
  );
}

/**
 * The mutation cache's `onSettled`: a change that succeeded online makes stale what its domain
 * declares. A change the outbox kept is not on the server yet; its replay does this when it lands.
 * Awaited by the mutation, so a caller of `mutateAsync` finds the screens' data read again.
 */
export function staleAfterMutation(loadStaleAfter: LoadStaleAfter): MutationCacheConfig['onSettled'] {
  return async (data, error, _variables, _context, mutation, { client }) => {
    const url = mutation.meta?.changes;
    if (error !== null || url === undefined || isQueued(data)) return;
    // Its code out of reach (the connection dropped as the change landed): the screens read again
    // when their data goes stale, as without a change.
    const table = await loadStaleAfter().catch(() => null);
    if (table) await markStaleAfterChange(client, table, url, mutation.state.submittedAt);
  };
}
