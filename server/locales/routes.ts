import { Hono } from 'hono';
import { LANGUAGE_NAMES, PLATFORM_LOCALES } from '../../contract/locales.ts';
import { listSchema } from '../../contract/schemas/common.ts';
import type { LocaleEntry } from '../../contract/schemas/profile.ts';
import { localeEntrySchema } from '../../contract/schemas/profile.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';

const LOCALE_ENTRIES: readonly LocaleEntry[] = PLATFORM_LOCALES.map((code) => ({
  id: code,
  name: LANGUAGE_NAMES[code],
}));

/** `GET locales`, public: the languages a user can choose, on the sign-in page too. */
export function localeRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    '/locales',
    describeOperation({
      tag: 'Reference',
      summary: 'The languages of the platform.',
      success: { status: 200, description: 'Languages', schema: listSchema(localeEntrySchema) },
      failures: [],
    }),
    (c) => c.json({ items: LOCALE_ENTRIES, total: LOCALE_ENTRIES.length }),
  );
}
