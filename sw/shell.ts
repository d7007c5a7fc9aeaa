import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  matchPrecache,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import { isConsoleNavigation, isLocaleChunk, isShellNavigation, OFFLINE_PAGE, SHELL_PAGE } from './paths.ts';

/** A page load of a file waits this long for the network before the saved shell is shown instead. */
const NAVIGATION_TIMEOUT_SECONDS = 5;

/**
 * One caching strategy per kind of request:
 * - the built shell (HTML, scripts, styles, icons, the English catalogs, the offline page) is
 *   precached at install and served from the cache, revision by revision;
 * - console navigations of the router's pages get the precached shell at once (cache first: it is
 *   the page of the running build); other navigations, and all of them before the shell is saved,
 *   go to the network first, then to the shell, then to the offline page;
 * - the catalogs of other languages are cached the first time they load (their names carry a
 *   content hash, so a cached one is never stale) and expire when unused;
 * - the API is never cached: the console keeps its own encrypted copy, and a plain one here would
 *   defeat it. Unmatched requests go to the network untouched.
 *
 * The console uses system fonts, so there is no font route.
 */
export function registerShellRoutes(manifest: (string | PrecacheEntry)[], origin: string): void {
  cleanupOutdatedCaches();
  precacheAndRoute(manifest);

  const network = new NetworkOnly({ networkTimeoutSeconds: NAVIGATION_TIMEOUT_SECONDS });
  registerRoute(
    ({ request, url }) => request.mode === 'navigate' && isConsoleNavigation(url, origin),
    async (options) => {
      // The page of this build at once, without a round trip: it is the one the server would send
      // (index.html for every route), and a newer build reaches the page through the worker's update
      // and its prompt, never through this answer. The browser checks sw.js for a new build on every
      // navigation, which is the revalidation (docs/decisions/026-start-up-round-trips.md).
      if (isShellNavigation(options.url, origin)) {
        const shell = await matchPrecache(SHELL_PAGE);
        if (shell) return shell;
      }
      try {
        return await network.handle(options);
      } catch {
        return (await matchPrecache(SHELL_PAGE)) ?? (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
      }
    },
  );

  registerRoute(
    ({ url }) => isLocaleChunk(url, origin),
    new CacheFirst({
      cacheName: 'trust-console-locales',
      plugins: [
        new ExpirationPlugin({ maxEntries: 32, maxAgeSeconds: 180 * 24 * 3600, purgeOnQuotaError: true }),
      ],
    }),
  );
}
