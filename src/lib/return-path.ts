import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH } from '../../contract/paths.ts';

/**
 * Where sign-in may send the user: a path of this console on this origin, never another site, so a
 * crafted `state` cannot turn sign-in into an open redirect. Anything else lands on the accounts list.
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate?.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) {
    return ACCOUNTS_LIST_PATH;
  }
  const origin = 'https://console.invalid';
  let url: URL;
  try {
    url = new URL(candidate, origin);
  } catch {
    return ACCOUNTS_LIST_PATH;
  }
  const insideConsole =
    url.pathname === CONSOLE_BASE_PATH || url.pathname.startsWith(`${CONSOLE_BASE_PATH}/`);
  if (url.origin !== origin || !insideConsole) return ACCOUNTS_LIST_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The router works on paths below the base path; this turns a public path into one. */
export function routerHref(publicPath: string): string {
  const inner = publicPath.slice(CONSOLE_BASE_PATH.length);
  return inner.startsWith('/') ? inner : `/${inner}`;
}
