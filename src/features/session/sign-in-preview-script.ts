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
 * was typed. The same script tells main.tsx whether the visit starts on the sign-in page at all
 * (docs/decisions/030-sign-in-without-the-router.md). This module is the build's end, read by
 * vite.config.ts; the page's end is sign-in-preview.ts.
 */

/** The id of the preview's container in index.html; its controls' ids start with it too. */
export const SIGN_IN_PREVIEW_ID = 'sign-in-preview';

/**
 * Set on `<html>` by the script where the visit starts on the sign-in page: main.tsx then draws it
 * without the router, which loads on the first move (docs/decisions/030-sign-in-without-the-router.md).
 */
export const SIGN_IN_START_ATTRIBUTE = 'data-sign-in-start';

/** The stored languages that leave the page in the catalog the preview was rendered in. */
const PREVIEW_LANGUAGES = PLATFORM_LOCALES.filter(
  (code) => consoleLocaleFor(code) === DEFAULT_CONSOLE_LOCALE,
);

export interface SignInStartScriptInput {
  /** The first part of the addresses of the secure console's pages (`accounts`, `profile`). */
  securePages: readonly string[];
  /** The scripts of the router's start, preloaded where the visit does not start on sign-in. */
  routerScripts: readonly string[];
}

/**
 * The inline script index.html runs before any of the console's code: it pins a chosen theme before
 * the first paint (as `applyTheme` does once the entry runs, lib/theme.ts), and decides whether the
 * visit starts on the sign-in page. It does where
 * - the address is the console's base, the sign-in page's, or one of the secure console's pages
 *   (`securePages`): without a session they all lead to sign-in. Not the pages used without a
 *   session (setup, enrollment, the error pages), nor an address of no page;
 * - there is no session hint cookie (`holdsRefreshCookie`, lib/session.ts): with one, the visit most
 *   likely opens the console signed in;
 * - the browser does not say it is offline: offline, the last user's saved console may open.
 * Such a visit gets `SIGN_IN_START_ATTRIBUTE`, and the preview is shown where it will look as drawn:
 * no `state` in the address (one may carry a name, a hint or an error the preview does not have), and
 * no stored language, or one whose catalog is the preview's (`resolveConsoleLocale`, lib/i18n.ts).
 * Any other visit starts through the router, whose scripts it preloads at once.
 * Storage that refuses to be read counts as nothing stored. Allowed by the hash of its text in the
 * page's Content-Security-Policy (server/http/security-headers.ts).
 */
export function signInStartScript({ securePages, routerScripts }: SignInStartScriptInput): string {
  const hint = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${SESSION_HINT_COOKIE}=`).toString();
  const loginPage = LOGIN_PATH.slice(CONSOLE_BASE_PATH.length + 1);
  return [
    '(function () {',
    '  function stored(key) {',
    '    try { return localStorage.getItem(key); } catch (error) { return null; }',
    '  }',
    `  var theme = stored(${JSON.stringify(STORAGE_KEYS.theme)});`,
    "  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);",
    `  var page = location.pathname.slice(${CONSOLE_BASE_PATH.length + 1}).split('/')[0];`,
    '  if (',
    `    (page === '' || page === ${JSON.stringify(loginPage)} || ${JSON.stringify(securePages)}.indexOf(page) >= 0) &&`,
    `    !${hint}.test(document.cookie) &&`,
    '    navigator.onLine !== false',
    '  ) {',
    `    document.documentElement.setAttribute(${JSON.stringify(SIGN_IN_START_ATTRIBUTE)}, '');`,
    `    var language = stored(${JSON.stringify(STORAGE_KEYS.language)});`,
    `    if (!(page === ${JSON.stringify(loginPage)} && location.search) && (language === null || ${JSON.stringify(PREVIEW_LANGUAGES)}.indexOf(language) >= 0)) {`,
    `      document.getElementById(${JSON.stringify(SIGN_IN_PREVIEW_ID)}).hidden = false;`,
    "      var splash = document.querySelector('.boot');",
    '      if (splash) splash.remove();',
    '    }',
    '  } else {',
    `    ${JSON.stringify(routerScripts)}.forEach(function (href) {`,
    "      var link = document.createElement('link');",
    "      link.rel = 'modulepreload';",
    "      link.crossOrigin = '';",
    '      link.href = href;',
    '      document.head.appendChild(link);',
    '    });',
    '  }',
    '})();',
  ].join('\n');
}
