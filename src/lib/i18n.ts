import { i18n, type Messages } from '@lingui/core';
import {
  bcp47For,
  type ConsoleLocale,
  consoleLocaleFor,
  DEFAULT_PLATFORM_LOCALE,
  PLATFORM_LOCALES,
  type PlatformLocale,
} from '../../contract/locales.ts';
import { readStored, writeStored } from './storage.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

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

/**
 * The console's catalogs of one language (lingui.config.ts). `public` is loaded with the language,
 * before any page renders; each of the others by the routes whose screens use it
 * (docs/decisions/028-catalogs-by-area.md).
 */
export type ConsoleCatalog =
  | 'public'
  | 'public-pages'
  | 'enrollment'
  | 'trust-agent'
  | 'client-certificate'
  | 'console'
  | 'access'
  | 'ca'
  | 'reporting'
  | 'profile';

/** The catalogs the visited routes asked for: a language switch loads them all in the new language. */
const wantedCatalogs = new Set<ConsoleCatalog>(['public']);

/** Catalogs merged into the i18n instance or on their way, as `locale/catalog`. */
const catalogLoads = new Map<string, Promise<void>>();

/**
 * The language being activated, or the active one: a catalog asked for while a switch is under way
 * loads in the language the screen will draw in.
 */
let targetLocale: ConsoleLocale | null = null;

function loadCatalog(locale: ConsoleLocale, catalog: ConsoleCatalog): Promise<void> {
  const key = `${locale}/${catalog}`;
  let loading = catalogLoads.get(key);
  if (!loading) {
    // One import pattern: the bundler makes one chunk per catalog file (locale-<locale>-<catalog>-*.js).
    // `load` merges into what the locale already has, so the catalogs add up to one.
    loading = import(`../locales/${locale}/${catalog}.po`).then((module: { messages: Messages }) =>
      i18n.load(locale, module.messages),
    );
    // A failed import (offline, chunk gone) may be retried by the next navigation.
    loading.catch(() => catalogLoads.delete(key));
    catalogLoads.set(key, loading);
  }
  return loading;
}

/**
 * Loads a language's catalogs (every catalog the visited routes asked for) and makes it active;
 * `<html lang>` follows.
 */
export async function activateLocale(locale: ConsoleLocale): Promise<void> {
  targetLocale = locale;
  await Promise.all([...wantedCatalogs].map((catalog) => loadCatalog(locale, catalog)));
  // A later switch, started while these loaded, decides.
  if (targetLocale !== locale || i18n.locale === locale) return;
  // The catalog is named `pt_BR`, but plurals, dates and numbers go through Intl, which takes only a
  // language tag: without the tag every plural message throws in the three catalogs with a region.
  i18n.activate(locale, [bcp47For(locale)]);
  document.documentElement.lang = bcp47For(locale);
}

/**
 * The texts of an area's screens in the current language, and in every language switched to later.
 * The routes that draw those screens await it before rendering: a text whose catalog is not loaded
 * shows its id (`npm run i18n:check` verifies every route loads what its screens say).
 */
export async function loadAreaCatalog(catalog: ConsoleCatalog): Promise<void> {
  wantedCatalogs.add(catalog);
  await loadCatalog(targetLocale ?? (i18n.locale as ConsoleLocale), catalog);
}

/** Stores the choice and reloads, so every screen and cached text starts in the new language (D-02, D-03). */
export function storeLanguageAndReload(code: PlatformLocale): void {
  writeStored(STORAGE_KEYS.language, code);
  window.location.reload();
}

/**
 * Stores the choice and switches the console to it without a reload (the own profile's save): the
 * language's catalogs (those of every area visited) are loaded, then every screen renders in it.
 */
export async function storeLanguageAndActivate(code: PlatformLocale): Promise<void> {
  writeStored(STORAGE_KEYS.language, code);
  await activateLocale(consoleLocaleFor(code));
}

export { i18n };
