import { consoleLocaleFor, DEFAULT_CONSOLE_LOCALE, PLATFORM_LOCALES } from '../../../contract/locales.ts';
import { CONSOLE_BASE_PATH, LOGIN_PATH } from '../../../contract/paths.ts';
import { SESSION_HINT_COOKIE } from '../../../contract/schemas/identity.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/*
 * The sign-in preview (docs/decisions/029-sign-in-preview.md): index.html carries the sign-in page's
 * username step as static HTML (sign-in-preview.html, rendered from the page itself by
 * tests/src/features/session/sign-in-preview.test.tsx), and a small inline script shows it before any
 * of the console's code has arrived, where the visit is going to end on that page. The username can
 * be typed at once; Next and the language stay disabled until the real page takes over and keeps what
 * was typed. This module is the build's end, read by vite.config.ts; the page's end is sign-in-preview.ts.
 */

/** The id of the preview's container in index.html; its controls' ids start with it too. */
export const SIGN_IN_PREVIEW_ID = 'sign-in-preview';

/** The stored languages that leave the page in the catalog the preview was rendered in. */
const PREVIEW_LANGUAGES = PLATFORM_LOCALES.filter(
  (code) => consoleLocaleFor(code) === DEFAULT_CONSOLE_LOCALE,
);

/**
 * The inline script index.html runs where the preview is: it pins a chosen theme before the first
 * paint (as `applyTheme` does once the entry runs, lib/theme.ts), and shows the preview only on a
 * visit that will end on the sign-in page as the preview drew it:
 * - an address of the secure console (the base included) or the bare sign-in address: without a
 *   session the router leads them to the username step with nothing above it. Not the pages used
 *   without a session (`publicPages`, the first part of their addresses: setup, enrollment, the
 *   error pages), nor a sign-in address with a `state`, which may carry a name, a hint or an error
 *   the preview does not have;
 * - no session hint cookie (`holdsRefreshCookie`, lib/session.ts): with one, the visit most likely
 *   opens the console signed in;
 * - a browser that does not say it is offline: offline, the last user's saved console may open;
 * - no stored language, or one whose catalog is the preview's (`resolveConsoleLocale`, lib/i18n.ts).
 * Anything unexpected (storage refused) leaves the preview hidden: the page then starts as without it.
 * Allowed by the hash of its text in the page's Content-Security-Policy (server/http/security-headers.ts).
 */
export function signInPreviewScript(publicPages: readonly string[]): string {
  const hint = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${SESSION_HINT_COOKIE}=`).toString();
  const loginPage = LOGIN_PATH.slice(CONSOLE_BASE_PATH.length + 1);
  return [
    '(function () {',
    '  try {',
    `    var theme = localStorage.getItem(${JSON.stringify(STORAGE_KEYS.theme)});`,
    "    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);",
    `    var page = location.pathname.slice(${CONSOLE_BASE_PATH.length + 1}).split('/')[0];`,
    `    var language = localStorage.getItem(${JSON.stringify(STORAGE_KEYS.language)});`,
    '    if (',
    `      (page === ${JSON.stringify(loginPage)} ? !location.search : ${JSON.stringify(publicPages)}.indexOf(page) < 0) &&`,
    `      !${hint}.test(document.cookie) &&`,
    '      navigator.onLine !== false &&',
    `      (language === null || ${JSON.stringify(PREVIEW_LANGUAGES)}.indexOf(language) >= 0)`,
    '    ) {',
    `      document.getElementById(${JSON.stringify(SIGN_IN_PREVIEW_ID)}).hidden = false;`,
    "      var splash = document.querySelector('.boot');",
    '      if (splash) splash.remove();',
    '    }',
    '  } catch (error) {}',
    '})();',
  ].join('\n');
}
