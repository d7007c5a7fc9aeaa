import { readFile } from 'node:fs/promises';
import { type I18n, setupI18n } from '@lingui/core';
import { formatter } from '@lingui/format-po';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import {
  bcp47For,
  CONSOLE_LOCALES,
  type ConsoleLocale,
  DEFAULT_CONSOLE_LOCALE,
} from '../../contract/locales.ts';

/**
 * The server's own catalog (docs/decisions/037-mail.md §4): the sentences of the
 * messages it sends, in `locales/{locale}/server.po`, extracted and checked like the console's by
 * `npm run i18n:extract` and `npm run i18n:check`.
 *
 * Each locale gets an `I18n` instance of its own, so rendering one user's message never switches a
 * language another render is using at the same time.
 */
export type ServerCatalogs = ReadonlyMap<ConsoleLocale, I18n>;

const CATALOG_DIRECTORY = new URL('./locales/', import.meta.url);

/** The catalog's messages by id: for the source locale its sentences, for the others their translations. */
async function readMessages(locale: ConsoleLocale): Promise<Map<string, string>> {
  const file = new URL(`${locale}/server.po`, CATALOG_DIRECTORY);
  const parsed = await formatter().parse(await readFile(file, 'utf8'), {
    locale,
    sourceLocale: DEFAULT_CONSOLE_LOCALE,
    filename: file.pathname,
  });
  return new Map(
    Object.entries(parsed)
      .filter(([, entry]) => !entry.obsolete)
      .map(([id, entry]) => [id, (entry.translation ?? '').trim() || (entry.message ?? '').trim()]),
  );
}

/**
 * Reads and compiles the eight catalogs. A message a locale leaves untranslated falls back to the
 * English sentence (`i18n:check` fails on it before a release); one that does not compile stops the
 * start, naming the locale and the message, rather than sending a broken sentence.
 */
export async function loadServerCatalogs(): Promise<ServerCatalogs> {
  const source = await readMessages(DEFAULT_CONSOLE_LOCALE);
  const catalogs = new Map<ConsoleLocale, I18n>();
  for (const locale of CONSOLE_LOCALES) {
    const translated = locale === DEFAULT_CONSOLE_LOCALE ? source : await readMessages(locale);
    const messages: Record<string, ReturnType<typeof compileMessageOrThrow>> = {};
    for (const [id, message] of source) {
      if (message === '') throw new Error(`The source server catalog has no sentence for "${id}".`);
      const text = translated.get(id) || message;
      try {
        messages[id] = compileMessageOrThrow(text);
      } catch (error) {
        throw new Error(`The ${locale} server catalog's message "${id}" does not compile.`, { cause: error });
      }
    }
    // Plural forms are chosen by Intl.PluralRules, which takes the BCP 47 tag (pt-BR), not the
    // catalog's directory name (pt_BR).
    const tag = bcp47For(locale);
    catalogs.set(locale, setupI18n({ locale: tag, messages: { [tag]: messages } }));
  }
  return catalogs;
}
