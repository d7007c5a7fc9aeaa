// @vitest-environment jsdom
import { plural } from '@lingui/core/macro';
import { describe, expect, it } from 'vitest';
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
