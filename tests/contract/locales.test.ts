import { describe, expect, it } from 'vitest';
import { bcp47For, CONSOLE_LOCALES, consoleLocaleFor, PLATFORM_LOCALES } from '../../contract/locales.ts';

describe('console catalog for a locale (overview §9)', () => {
  it.each([
    ['zh_CN', 'zh_CN'],
    ['pt_BR', 'pt_BR'],
    ['zh_TW', 'zh_TW'],
    ['zh-tw', 'zh_TW'],
    ['pt-BR', 'pt_BR'],
  ])('keeps the region of %s', (code, expected) => {
    expect(consoleLocaleFor(code)).toBe(expected);
  });

  it.each([
    ['en_US', 'en'],
    ['de_DE', 'de'],
    ['de_AT', 'de'],
    ['fr-CA', 'fr'],
    ['es', 'es'],
    ['ja_JP', 'ja'],
    ['pt_PT', 'en'],
    ['zh_HK', 'en'],
  ])('uses only the language part of %s', (code, expected) => {
    expect(consoleLocaleFor(code)).toBe(expected);
  });

  it.each([[''], ['xx_YY'], ['klingon'], ['__'], [null], [undefined]])('falls back to en for %j', (code) => {
    expect(consoleLocaleFor(code)).toBe('en');
  });

  it('has a catalog for every platform locale', () => {
    for (const locale of PLATFORM_LOCALES) {
      expect(CONSOLE_LOCALES).toContain(consoleLocaleFor(locale));
    }
  });

  it('writes BCP 47 tags for the lang attribute', () => {
    expect(bcp47For('zh_TW')).toBe('zh-TW');
    expect(bcp47For('de')).toBe('de');
  });
});
