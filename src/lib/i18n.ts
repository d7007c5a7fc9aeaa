import { i18n } from '@lingui/core';
import {
  bcp47For,
  type ConsoleLocale,
  consoleLocaleFor,
  DEFAULT_PLATFORM_LOCALE,
  PLATFORM_LOCALES,
  type PlatformLocale,
} from '../../contract/locales.ts';
import { readStored, STORAGE_KEYS, writeStored } from './storage.ts';

/** The language the user chose on this browser, as the platform locale code it was stored with. */
export function storedLanguage(): string | null {
  return readStored(STORAGE_KEYS.language);
}

/** Overview §9: the stored choice, else the profile's locale, else English (D-01). */
export function resolveConsoleLocale(stored: string | null, profileLocale: string | null): ConsoleLocale {
  return consoleLocaleFor(stored ?? profileLocale);
}

/** The platform code (`de_DE`) that stands for a console catalog (`de`). */
export function platformLocaleFor(locale: ConsoleLocale): PlatformLocale {
  return PLATFORM_LOCALES.find((code) => consoleLocaleFor(code) === locale) ?? DEFAULT_PLATFORM_LOCALE;
}

/** Loads one catalog (its own chunk) and makes it active; `<html lang>` follows. */
export async function activateLocale(locale: ConsoleLocale): Promise<void> {
  if (i18n.locale === locale) return;
  const { messages } = await import(`../locales/${locale}/messages.po`);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = bcp47For(locale);
}

/** Stores the choice and reloads, so every screen and cached text starts in the new language (D-02, D-03). */
export function storeLanguageAndReload(code: PlatformLocale): void {
  writeStored(STORAGE_KEYS.language, code);
  window.location.reload();
}

export { i18n };
