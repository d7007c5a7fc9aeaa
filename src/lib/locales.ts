import {
  bcp47For,
  consoleLocaleFor,
  isPlatformLocale,
  LANGUAGE_NAMES,
  PLATFORM_LOCALES,
  type PlatformLocale,
} from '../../contract/locales.ts';
import { apiPaths } from '../../contract/paths.ts';
import { listSchema } from '../../contract/schemas/common.ts';
import { localeEntrySchema } from '../../contract/schemas/profile.ts';
import { apiRequest } from './api-client.ts';
import { publicResource } from './public-data.ts';

export interface LanguageChoice {
  code: PlatformLocale;
  /** The language's own name, so people can find theirs whatever language the page is in. */
  name: string;
  lang: string;
}

/** GET locales (D-06): the languages the platform offers; they change only with a release. */
export const platformLocales = publicResource(
  () => apiRequest('GET', apiPaths.locales, { schema: listSchema(localeEntrySchema) }),
  Number.POSITIVE_INFINITY,
);

function choiceFor(code: PlatformLocale): LanguageChoice {
  return { code, name: LANGUAGE_NAMES[code], lang: bcp47For(consoleLocaleFor(code)) };
}

/** The server's list once it arrived (D-06), the built-in one until then or if it fails. */
export function languageChoices(entries: readonly { id: string }[] | undefined): LanguageChoice[] {
  const codes = entries?.map((entry) => entry.id).filter(isPlatformLocale);
  return (codes && codes.length > 0 ? codes : PLATFORM_LOCALES).map(choiceFor);
}
