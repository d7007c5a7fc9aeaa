import { describe, expect, it } from 'vitest';
import { isApiPath } from '../../contract/paths.ts';
import { isConsoleNavigation, isLocaleChunk, isShellNavigation } from '../../sw/paths.ts';

const ORIGIN = 'https://console.example';
const url = (path: string, origin = ORIGIN) => new URL(path, origin);

describe('how the worker sorts requests', () => {
  it('knows the API paths the contract names', () => {
    expect(isApiPath('/account/ui-api/v1/organizations')).toBe(true);
    expect(isApiPath('/account/ui-api')).toBe(true);
    expect(isApiPath('/account/accounts')).toBe(false);
  });

  it('gives the shell to console navigations only', () => {
    expect(isConsoleNavigation(url('/account/accounts/42/organizations'), ORIGIN)).toBe(true);
    expect(isConsoleNavigation(url('/account/'), ORIGIN)).toBe(true);
    expect(isConsoleNavigation(url('/account/ui-api/v1/profile'), ORIGIN)).toBe(false);
    expect(isConsoleNavigation(url('/account/api/v1/docs'), ORIGIN)).toBe(false);
    expect(isConsoleNavigation(url('/imauth/api/v1/auth/me'), ORIGIN)).toBe(false);
    expect(isConsoleNavigation(url('/elsewhere'), ORIGIN)).toBe(false);
    expect(isConsoleNavigation(url('/account/accounts', 'https://other.example'), ORIGIN)).toBe(false);
  });

  it("answers the router's pages from the precached shell, files from the network", () => {
    expect(isShellNavigation(url('/account/accounts/42/organizations?page=2'), ORIGIN)).toBe(true);
    expect(isShellNavigation(url('/account/login?state=abc.def'), ORIGIN)).toBe(true);
    expect(isShellNavigation(url('/account/'), ORIGIN)).toBe(true);
    expect(isShellNavigation(url('/account/offline.html'), ORIGIN)).toBe(false);
    expect(isShellNavigation(url('/account/manifest.webmanifest'), ORIGIN)).toBe(false);
    expect(isShellNavigation(url('/account/ui-api/v1/profile'), ORIGIN)).toBe(false);
    expect(isShellNavigation(url('/account/accounts', 'https://other.example'), ORIGIN)).toBe(false);
  });

  it('recognises the catalog chunks the build names by language', () => {
    for (const name of [
      'locale-de-console-BdcpDmbk.js',
      'locale-zh_TW-public-DFLUqUq3.js',
      'locale-pt_BR-public-WScO_sGQ.js',
      'locale-ja-public-pages-Cq2-x1Lb.js',
    ]) {
      expect(isLocaleChunk(url(`/account/assets/${name}`), ORIGIN)).toBe(true);
    }
    expect(isLocaleChunk(url('/account/assets/locales-CXIxg7Xw.js'), ORIGIN)).toBe(false);
    expect(isLocaleChunk(url('/account/assets/locale-de-console-BdcpDmbk.js.map'), ORIGIN)).toBe(false);
    expect(isLocaleChunk(url('/account/assets/framework-DOnTWEew.js'), ORIGIN)).toBe(false);
    expect(isLocaleChunk(url('/account/assets/locale-de-console-X.js', 'https://cdn.example'), ORIGIN)).toBe(
      false,
    );
  });
});
