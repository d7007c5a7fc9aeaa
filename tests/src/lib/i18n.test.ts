// @vitest-environment jsdom
import { msg, plural } from '@lingui/core/macro';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_LOCALES } from '../../../contract/locales.ts';
import { activateLocale, i18n, platformLocaleFor, resolveConsoleLocale } from '../../../src/lib/i18n.ts';

describe('console locale rule', () => {
  it('prefers the stored language over the profile locale', () => {
    expect(resolveConsoleLocale('fr_FR', 'de_DE')).toBe('fr');
  });

  it('uses the profile locale when nothing is stored', () => {
    expect(resolveConsoleLocale(null, 'de_DE')).toBe('de');
  });

  it('defaults to English', () => {
    expect(resolveConsoleLocale(null, null)).toBe('en');
    expect(resolveConsoleLocale('xx_YY', null)).toBe('en');
  });

  it('keeps the region for zh_CN, zh_TW and pt_BR only', () => {
    expect(resolveConsoleLocale('zh_CN', null)).toBe('zh_CN');
    expect(resolveConsoleLocale('zh-tw', null)).toBe('zh_TW');
    expect(resolveConsoleLocale('pt_BR', null)).toBe('pt_BR');
    expect(resolveConsoleLocale('es_MX', null)).toBe('es');
    expect(resolveConsoleLocale('en_GB', null)).toBe('en');
  });

  it('maps a console catalog back to the platform locale sent to the server', () => {
    expect(platformLocaleFor('en')).toBe('en_US');
    expect(platformLocaleFor('ja')).toBe('ja_JP');
    expect(platformLocaleFor('zh_TW')).toBe('zh_TW');
  });
});

describe('activating a catalog', () => {
  it.each(CONSOLE_LOCALES)('%s formats plurals, dates and numbers', async (locale) => {
    await activateLocale(locale);
    const count = 2;
    expect(() => plural(count, { one: '# account', other: '# accounts' })).not.toThrow();
    expect(() => i18n.date(new Date(0))).not.toThrow();
    expect(() => i18n.number(1234.5)).not.toThrow();
    expect(document.documentElement.lang).toBe(locale.replace('_', '-'));
  });
});

describe('catalogs by area', () => {
  // The i18n module remembers which catalogs were asked for: each case starts from a fresh one.
  beforeEach(() => {
    vi.resetModules();
  });
  const freshI18n = () => import('../../../src/lib/i18n.ts');

  // A text of the audit log's screens: in the `reporting` catalog only.
  const action = 'Sign-in';
  const when = 'noon';
  const eventTitle = msg`${action} at ${when}`;

  it("has an area's texts in the active language once the area's catalog is loaded", async () => {
    const { activateLocale, loadAreaCatalog, i18n } = await freshI18n();
    await activateLocale('de');
    expect(i18n._(eventTitle)).toBe('Sign-in at noon');
    await loadAreaCatalog('reporting');
    expect(i18n._(eventTitle)).toBe('Sign-in am noon');
  });

  it('loads every area already loaded when the language changes', async () => {
    const { activateLocale, loadAreaCatalog, i18n } = await freshI18n();
    await activateLocale('de');
    await loadAreaCatalog('reporting');
    await activateLocale('fr');
    expect(i18n._(eventTitle)).toBe('Sign-in le noon');
  });

  it('loads a catalog asked for during a switch in the language switched to', async () => {
    const { activateLocale, loadAreaCatalog, i18n } = await freshI18n();
    await activateLocale('en');
    const switching = activateLocale('de');
    await loadAreaCatalog('reporting');
    await switching;
    expect(i18n.locale).toBe('de');
    expect(i18n._(eventTitle)).toBe('Sign-in am noon');
  });

  it('keeps the language of the last switch when an earlier one finishes later', async () => {
    const { activateLocale, i18n } = await freshI18n();
    await activateLocale('en');
    const toGerman = activateLocale('de');
    await activateLocale('en');
    await toGerman;
    expect(i18n.locale).toBe('en');
  });
});
