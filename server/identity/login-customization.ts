import { type Kysely, sql } from 'kysely';
import * as v from 'valibot';
import { type LoginCustomization, loginCustomizationSchema } from '../../contract/schemas/identity.ts';
import type { Database } from '../db/schema.ts';

const SETTINGS_KEY = 'login_customization';

/** What the sign-in page shows until a system administrator configures it. */
const NOT_CONFIGURED: LoginCustomization = {
  logo: null,
  urls: {
    termsOfUse: null,
    privacyPolicy: null,
    legalRepository: null,
    webtrustAudit: null,
    support: null,
    contactUs: null,
  },
  copyright: null,
};

export async function readLoginCustomization(db: Kysely<Database>): Promise<LoginCustomization> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  if (!row) return NOT_CONFIGURED;
  // Stored values passed this schema when written; a row that no longer does is not served as is.
  const parsed = v.safeParse(loginCustomizationSchema, row.value);
  if (!parsed.success) throw new Error('The stored login customization does not match its schema.');
  return parsed.output;
}

export async function saveLoginCustomization(
  db: Kysely<Database>,
  customization: LoginCustomization,
  now: Date,
): Promise<void> {
  const value = JSON.stringify(customization);
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value, updated_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value, updated_at: now, version: sql<number>`settings.version + 1` }),
    )
    .execute();
}

const WEB_PROTOCOLS = new Set(['https:', 'http:']);

/**
 * The first link that is a URL but not a web address (`javascript:`, `data:` …), which the sign-in
 * page must never render as a link, or null when every link is safe.
 */
export function firstNonWebLink(customization: LoginCustomization): string | null {
  for (const [name, url] of Object.entries(customization.urls)) {
    if (url !== null && !WEB_PROTOCOLS.has(new URL(url).protocol)) return name;
  }
  return null;
}
