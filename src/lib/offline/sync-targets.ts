import type { QueryKey } from '@tanstack/react-query';

/**
 * Which cached queries a change to an API path makes stale, declared by each feature next to its
 * query keys. When the service worker reports a queued change as sent, the queries of every target
 * whose prefix the change's path starts with are invalidated. Kept apart from the outbox client so a
 * feature can declare its targets without loading it.
 */
const targets: { prefix: string; queryKeys: readonly QueryKey[] }[] = [];

export function registerSyncTargets(prefix: string, queryKeys: readonly QueryKey[]): void {
  if (targets.some((target) => target.prefix === prefix)) return;
  targets.push({ prefix, queryKeys });
}

/** The query keys a change of `url` (path and query, or an absolute URL) makes stale. */
export function queryKeysAffectedBy(url: string): QueryKey[] {
  const path = new URL(url, 'http://console.invalid').pathname;
  return targets.filter((target) => path.startsWith(target.prefix)).flatMap((target) => target.queryKeys);
}
