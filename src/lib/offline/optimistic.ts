import type { QueryClient, QueryFilters, QueryKey } from '@tanstack/react-query';

/**
 * A queued change shown on the cached data at once, before the server has it. The time of the data
 * stays the time it was loaded: the "data as of" notice must not claim the server said so later.
 */
export function applyToCached<T>(
  queryClient: QueryClient,
  filters: QueryFilters & { queryKey: QueryKey },
  update: (data: T) => T,
): void {
  for (const query of queryClient.getQueryCache().findAll(filters)) {
    const data = query.state.data as T | undefined;
    if (data === undefined) continue;
    queryClient.setQueryData(query.queryKey, update(data), { updatedAt: query.state.dataUpdatedAt });
  }
}
