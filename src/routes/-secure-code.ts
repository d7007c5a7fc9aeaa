import type { QueryClient } from '@tanstack/react-query';

/**
 * The code the secure layout's start needs before its first request: the query client, the offline
 * support and the app's table of sync targets, fetched together (one round trip, not one per module).
 * The sign-in page asks for it while the user types the password, so that after a cold visit the
 * sign-in's answer does not wait for these downloads (docs/decisions/026-start-up-round-trips.md).
 */
export function loadSecureCode(loadQueryClient: () => Promise<QueryClient>) {
  return Promise.all([
    loadQueryClient(),
    import('../lib/query-client.ts'),
    import('../lib/offline/secure-session.ts'),
    import('./-sync-targets.ts'),
  ]);
}
