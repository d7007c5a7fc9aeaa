/**
 * Which requests the service worker treats how. Pure functions of the URL, so the routing rules are
 * tested without a worker.
 */

import { isApiPath } from '../contract/paths.ts';

/** Scope of the console: its navigations get the shell when the network fails. */
export const CONSOLE_SCOPE = '/account/';

/** A page load of the console (not of the API reference or any other API path under the scope). */
export function isConsoleNavigation(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith(CONSOLE_SCOPE) && !isApiPath(url.pathname);
}

/**
 * A navigation the console's router draws: a path whose last segment names no file (no dot). The
 * server answers every such path with `index.html`, so the worker may answer it with the precached
 * one; a file (the offline page, a bench's page) goes to the network like before.
 */
export function isShellNavigation(url: URL, origin: string): boolean {
  const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return isConsoleNavigation(url, origin) && !last.includes('.');
}

/**
 * The chunk of one language's catalog, named by the build `assets/locale-<code>-<catalog>-<hash>.js`
 * (vite.config.ts). English is precached; the other languages are cached the first time they load.
 */
const LOCALE_CHUNK = /^\/account\/assets\/locale-[A-Za-z_]+-[\w-]+\.js$/;

export function isLocaleChunk(url: URL, origin: string): boolean {
  return url.origin === origin && LOCALE_CHUNK.test(url.pathname);
}

/** Where the precached shell and the offline page live, relative to the worker's own URL. */
export const SHELL_PAGE = 'index.html';
export const OFFLINE_PAGE = 'offline.html';
