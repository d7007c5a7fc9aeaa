import { i18n, type Messages } from '@lingui/core';
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

/**
 * Overview §9: the stored choice, else the profile's locale, else English (D-01). Before sign-in only:
 * once signed in, the user's profile locale decides (`routes/_secure.tsx`), so one person's choice on
 * a shared browser does not become the next person's language.
 */
export function resolveConsoleLocale(stored: string | null, profileLocale: string | null): ConsoleLocale {
  return consoleLocaleFor(stored ?? profileLocale);
}

/** The platform code (`de_DE`) that stands for a console catalog (`de`). */
export function platformLocaleFor(locale: ConsoleLocale): PlatformLocale {
  return PLATFORM_LOCALES.find((code) => consoleLocaleFor(code) === locale) ?? DEFAULT_PLATFORM_LOCALE;
}

type CatalogPart = 'public' | 'console';

/** Catalogs already merged into the i18n instance, as `locale/part`. */
const loadedCatalogs = new Set<string>();

async function importCatalog(locale: ConsoleLocale, part: CatalogPart): Promise<Messages> {
  // Two literal import patterns, so the bundler makes one chunk per catalog file and no more.
  const module =
    part === 'public'
      ? await import(`../locales/${locale}/public.po`)
      : await import(`../locales/${locale}/console.po`);
  return module.messages;
}

async function loadCatalog(locale: ConsoleLocale, part: CatalogPart): Promise<void> {
  const key = `${locale}/${part}`;
  if (loadedCatalogs.has(key)) return;
  // `load` merges into what the locale already has, so the two parts add up to one catalog.
  i18n.load(locale, await importCatalog(locale, part));
  loadedCatalogs.add(key);
}

/**
 * Loads the public catalog of a language (its own chunk) and makes it active; `<html lang>` follows.
 * The console catalog of the active language is loaded by `loadConsoleCatalog`.
 */
export async function activateLocale(locale: ConsoleLocale): Promise<void> {
  await loadCatalog(locale, 'public');
  if (i18n.locale === locale) return;
  // The catalog is named `pt_BR`, but plurals, dates and numbers go through Intl, which takes only a
  // language tag: without the tag every plural message throws in the three catalogs with a region.
  i18n.activate(locale, [bcp47For(locale)]);
  document.documentElement.lang = bcp47For(locale);
}

/** The secure screens' texts in the active language; the secure layout awaits it before rendering. */
export async function loadConsoleCatalog(): Promise<void> {
  await loadCatalog(i18n.locale as ConsoleLocale, 'console');
}

/** Stores the choice and reloads, so every screen and cached text starts in the new language (D-02, D-03). */
export function storeLanguageAndReload(code: PlatformLocale): void {
  writeStored(STORAGE_KEYS.language, code);
  window.location.reload();
}

/**
 * Stores the choice and switches the console to it without a reload (the own profile's save): the
 * language's catalogs are loaded, then every screen renders in it.
 */
export async function storeLanguageAndActivate(code: PlatformLocale): Promise<void> {
  writeStored(STORAGE_KEYS.language, code);
  await activateLocale(consoleLocaleFor(code));
  await loadConsoleCatalog();
}

export { i18n };
