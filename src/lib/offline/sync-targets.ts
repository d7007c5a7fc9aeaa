import type { QueryKey } from '@tanstack/react-query';

/**
 * Which cached queries a change to an API path makes stale: when the service worker reports a queued
 * change as sent (or discarded), the queries of every target whose prefix the change's path starts
 * with are read again. The app declares them in one table (`routes/-sync-targets.ts`), so what is
 * refreshed does not depend on which feature modules happen to have loaded.
 */
export interface SyncTarget {
  prefix: string;
  queryKeys: readonly QueryKey[];
}

/** The query keys a change of `url` (path and query, or an absolute URL) makes stale. */
export function queryKeysAffectedBy(targets: readonly SyncTarget[], url: string): QueryKey[] {
  const path = new URL(url, 'http://console.invalid').pathname;
  return targets.filter((target) => path.startsWith(target.prefix)).flatMap((target) => target.queryKeys);
}
