/**
 * Locale codes. The platform stores and exchanges locales as `ll_RR` (en_US, zh_CN …). The console
 * loads translations by the spec's rule (overview §9): zh_CN, pt_BR and zh_TW keep their region,
 * every other locale uses its language part only.
 */
export const PLATFORM_LOCALES = [
  'en_US',
  'de_DE',
  'fr_FR',
  'es_ES',
  'ja_JP',
  'zh_CN',
  'zh_TW',
  'pt_BR',
] as const;
export type PlatformLocale = (typeof PLATFORM_LOCALES)[number];
export const DEFAULT_PLATFORM_LOCALE: PlatformLocale = 'en_US';

const REGIONAL_LOCALES = new Set(['zh_CN', 'pt_BR', 'zh_TW']);

export const CONSOLE_LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'zh_CN', 'zh_TW', 'pt_BR'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];
export const DEFAULT_CONSOLE_LOCALE: ConsoleLocale = 'en';

/** Native names shown in language pickers; they are never translated. */
export const LANGUAGE_NAMES: Record<PlatformLocale, string> = {
  en_US: 'English (US)',
  de_DE: 'Deutsch',
  fr_FR: 'Français',
  es_ES: 'Español',
  ja_JP: '日本語',
  zh_CN: '简体中文',
  zh_TW: '繁體中文',
  pt_BR: 'Português (Brasil)',
};

/** Accepts `en_US`, `en-US`, `en` or `zh-tw` and answers the console catalog to load. */
export function consoleLocaleFor(code: string | null | undefined): ConsoleLocale {
  if (!code) return DEFAULT_CONSOLE_LOCALE;
  const [language = '', region = ''] = code.replace('-', '_').split('_');
  const normalised = `${language.toLowerCase()}_${region.toUpperCase()}`;
  const candidate = REGIONAL_LOCALES.has(normalised) ? normalised : language.toLowerCase();
  return (CONSOLE_LOCALES as readonly string[]).includes(candidate)
    ? (candidate as ConsoleLocale)
    : DEFAULT_CONSOLE_LOCALE;
}

/** The BCP 47 tag of a console locale, for `Intl` and the `lang` attribute. */
export function bcp47For(locale: ConsoleLocale): string {
  return locale.replace('_', '-');
}

/**
 * The `Intl` locale for any locale code the console holds (`pt_BR`, `de_DE`, `en`): `Intl` takes
 * only language tags and throws on `pt_BR`.
 */
export function intlLocaleOf(code: string | null | undefined): string {
  return bcp47For(consoleLocaleFor(code));
}

export function isPlatformLocale(code: string): code is PlatformLocale {
  return (PLATFORM_LOCALES as readonly string[]).includes(code);
}
