// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_BASE_PATH } from '../../../../contract/paths.ts';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { takeOverSignInPreview } from '../../../../src/features/session/sign-in-preview.ts';
import {
  SIGN_IN_PREVIEW_ID,
  SIGN_IN_START_ATTRIBUTE,
  signInStartScript,
} from '../../../../src/features/session/sign-in-preview-script.ts';
import { activateLocale } from '../../../../src/lib/i18n.ts';
import { STORAGE_KEYS } from '../../../../src/lib/storage-keys.ts';
import { apiError, holdRefreshCookie, json, mockApi, renderApp } from '../../support.tsx';

/** Where the build reads the preview from (vite.config.ts, `signInPreview`). */
const PREVIEW_MARKUP = '../../../../src/features/session/sign-in-preview.html';

/** A visitor without a session on a platform that is set up; the footer and the languages unanswered. */
function publicApi() {
  return mockApi({
    'GET /account/ui-api/v1/setup/status': () =>
      json({ licence_installed: true, administrator_exists: true }),
    'GET /imauth/api/v1/login/customization': () => apiError(503, 'Unavailable.'),
    'GET /account/api/v1/locales': () => apiError(503, 'Unavailable.'),
  });
}

/**
 * The page's markup as a preview: no id that the real page has (React's generated ones renamed after
 * the preview, the main region's left out), the form submitting nowhere (`method="dialog"` outside a dialog does nothing) and
 * every control but the username disabled until the page takes over.
 */
function asPreview(markup: string): string {
  const ids = new Map<string, string>();
  return (
    markup
      .replace(/_r_[0-9a-z]+_/g, (id) => {
        if (!ids.has(id)) ids.set(id, `${SIGN_IN_PREVIEW_ID}-${ids.size + 1}`);
        return ids.get(id) as string;
      })
      .replace(' id="main-content"', '')
      // The page draws the icon under Vite's base, which tests leave at `/`.
      .replaceAll(' src="/', ` src="${CONSOLE_BASE_PATH}/`)
      .replace(/<form /g, '<form method="dialog" ')
      .replace(/<(button|select) /g, '<$1 disabled="" ')
  );
}

/** The preview as index.html holds it, before its script has run. */
async function insertPreview(): Promise<HTMLElement> {
  const { readFile } = await import('node:fs/promises');
  const markup = await readFile(new URL(PREVIEW_MARKUP, import.meta.url), 'utf8');
  const preview = document.createElement('div');
  preview.id = SIGN_IN_PREVIEW_ID;
  preview.hidden = true;
  preview.innerHTML = markup;
  document.body.append(preview);
  return preview;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.getElementById(SIGN_IN_PREVIEW_ID)?.remove();
  document.querySelector('.boot')?.remove();
  document.documentElement.removeAttribute('data-theme');
  holdRefreshCookie(false);
  window.history.replaceState(null, '', '/');
});

describe('sign-in preview', () => {
  // After a change to the sign-in page, write the file the build puts into index.html again with
  // `npx vitest run --project console --update=all tests/src/features/session/sign-in-preview.test.tsx`
  // (`--update` takes a value: without one it would take the file's name as its value).
  it('is the username step as the sign-in page draws it in English', async () => {
    publicApi();
    renderApp('/account/');
    await activateLocale('en');
    await screen.findByLabelText('Username');
    const page = document.querySelector('.public');
    if (!page) throw new Error('The sign-in page has no .public frame.');
    const preview = asPreview(page.outerHTML);

    const parsed = new DOMParser().parseFromString(preview, 'text/html');
    expect(parsed.querySelectorAll('form')).toHaveLength(1);
    expect(parsed.querySelector('form')?.getAttribute('method')).toBe('dialog');
    expect([...parsed.querySelectorAll('input')].map((input) => [input.name, input.disabled])).toEqual([
      ['username', false],
    ]);
    expect(
      [...parsed.querySelectorAll('button, select')].every((control) => control.hasAttribute('disabled')),
    ).toBe(true);
    expect(preview).not.toMatch(/_r_|main-content/);
    await expect(preview).toMatchFileSnapshot(PREVIEW_MARKUP);
  });

  describe('its script', () => {
    /** As vite.config.ts lists them from src/routes/_secure and the build. */
    const securePages = ['accounts', 'profile', 'settings'];
    const routerScripts = ['/account/assets/router-abc.js'];

    async function runScriptAt(path: string): Promise<HTMLElement> {
      window.history.replaceState(null, '', path);
      const preview = await insertPreview();
      const splash = document.createElement('div');
      splash.className = 'boot';
      document.body.append(splash);
      new Function(signInStartScript({ securePages, routerScripts }))();
      return preview;
    }

    const startsOnSignIn = () => document.documentElement.hasAttribute(SIGN_IN_START_ATTRIBUTE);
    const preloaded = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) =>
        link.getAttribute('href'),
      );

    afterEach(() => {
      document.documentElement.removeAttribute(SIGN_IN_START_ATTRIBUTE);
      for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) link.remove();
      window.localStorage.clear();
    });

    it('starts on sign-in and shows the preview on the secure console’s addresses and the bare sign-in address', async () => {
      for (const path of ['/account/', '/account', '/account/accounts/7?tab=users', '/account/login']) {
        const preview = await runScriptAt(path);
        expect(startsOnSignIn(), path).toBe(true);
        expect(preview.hidden, path).toBe(false);
        expect(document.querySelector('.boot'), path).toBeNull();
        expect(preloaded(), path).toEqual([]);
        preview.remove();
        document.documentElement.removeAttribute(SIGN_IN_START_ATTRIBUTE);
      }
    });

    it('starts on sign-in without the preview at a sign-in address with a state, which the preview does not show', async () => {
      const login = `/account/login?state=${encodeSignInState({ return_path: '/account/accounts' })}`;
      const preview = await runScriptAt(login);
      expect(startsOnSignIn()).toBe(true);
      expect(preview.hidden).toBe(true);
      expect(document.querySelector('.boot')).not.toBeNull();
    });

    it('starts through the router, preloading it, at the pages used without a session and at no page', async () => {
      for (const path of [
        '/account/setup-user',
        '/account/enrollment/1/2',
        '/account/verify/1/2',
        '/account/nowhere',
      ]) {
        const preview = await runScriptAt(path);
        expect(startsOnSignIn(), path).toBe(false);
        expect(preview.hidden, path).toBe(true);
        expect(document.querySelector('.boot'), path).not.toBeNull();
        expect(preloaded(), path).toEqual(routerScripts);
        preview.remove();
        document.querySelector('.boot')?.remove();
        for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) link.remove();
      }
    });

    it('starts through the router for a browser that says it is offline', async () => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      expect((await runScriptAt('/account/')).hidden).toBe(true);
      expect(startsOnSignIn()).toBe(false);
      expect(preloaded()).toEqual(routerScripts);
    });

    it('starts through the router for a browser holding a session', async () => {
      holdRefreshCookie(true);
      expect((await runScriptAt('/account/')).hidden).toBe(true);
      expect(startsOnSignIn()).toBe(false);
      expect(preloaded()).toEqual(routerScripts);
    });

    it('shows the preview where the stored language is English, not where it is another', async () => {
      window.localStorage.setItem(STORAGE_KEYS.language, 'en_US');
      expect((await runScriptAt('/account/')).hidden).toBe(false);
      document.getElementById(SIGN_IN_PREVIEW_ID)?.remove();
      window.localStorage.setItem(STORAGE_KEYS.language, 'de_DE');
      expect((await runScriptAt('/account/')).hidden).toBe(true);
      expect(startsOnSignIn()).toBe(true);
    });

    it('counts storage that refuses to be read as nothing stored', async () => {
      vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
        throw new DOMException('Storage is disabled.', 'SecurityError');
      });
      expect((await runScriptAt('/account/')).hidden).toBe(false);
      expect(startsOnSignIn()).toBe(true);
    });

    it('pins a chosen theme before the first paint', async () => {
      window.localStorage.setItem(STORAGE_KEYS.theme, 'dark');
      await runScriptAt('/account/accounts');
      expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    });
  });

  describe('taken over by the sign-in page', () => {
    const loginPath = `/account/login?state=${encodeSignInState({ return_path: '/account/accounts' })}`;

    it('keeps what was typed, with the focus and the caret', async () => {
      const preview = await insertPreview();
      preview.hidden = false;
      const typed = preview.querySelector<HTMLInputElement>('input[name="username"]');
      if (!typed) throw new Error('The preview has no username field.');
      typed.value = 'ada.lovelace';
      typed.focus();
      typed.setSelectionRange(3, 3);

      publicApi();
      const { container } = renderApp(loginPath);
      const field = await within(container).findByRole('textbox', { name: 'Username' });
      expect(field).toHaveProperty('value', 'ada.lovelace');
      expect(document.activeElement).toBe(field);
      expect([(field as HTMLInputElement).selectionStart, (field as HTMLInputElement).selectionEnd]).toEqual([
        3, 3,
      ]);
      expect(document.getElementById(SIGN_IN_PREVIEW_ID)).toBeNull();
    });

    it('drops a preview that was never shown without taking anything from it', async () => {
      const preview = await insertPreview();
      const typed = preview.querySelector<HTMLInputElement>('input[name="username"]');
      if (!typed) throw new Error('The preview has no username field.');
      typed.value = 'not-shown';

      publicApi();
      const { container } = renderApp(loginPath);
      const field = await within(container).findByRole('textbox', { name: 'Username' });
      expect(field).toHaveProperty('value', '');
      await waitFor(() => expect(document.getElementById(SIGN_IN_PREVIEW_ID)).toBeNull());
    });

    it('is a no-op without a preview', () => {
      expect(() => takeOverSignInPreview(null)).not.toThrow();
    });
  });
});
