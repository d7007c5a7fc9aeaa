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

/** The settings with their version, the ETag; 0 while nothing was ever stored. */
export interface VersionedLoginCustomization {
  customization: LoginCustomization;
  version: number;
}

export async function readLoginCustomization(db: Kysely<Database>): Promise<VersionedLoginCustomization> {
  const row = await db
    .selectFrom('settings')
    .select(['value', 'version'])
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  if (!row) return { customization: NOT_CONFIGURED, version: 0 };
  // Stored values passed this schema when written; a row that no longer does is not served as is.
  const parsed = v.safeParse(loginCustomizationSchema, row.value);
  if (!parsed.success) throw new Error('The stored login customization does not match its schema.');
  return { customization: parsed.output, version: row.version };
}

/** Serialises changes of the settings in one transaction each, the first one (no row yet) included. */
const LOGIN_CUSTOMIZATION_LOCK = 0x6c6f6763;

/** Holds the settings until the transaction ends, so If-Match is checked against the version it replaces. */
export async function lockLoginCustomization(trx: Kysely<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${LOGIN_CUSTOMIZATION_LOCK})`.execute(trx);
}

/** Stores the settings; answers their new version. */
export async function saveLoginCustomization(
  db: Kysely<Database>,
  customization: LoginCustomization,
  now: Date,
): Promise<number> {
  const value = JSON.stringify(customization);
  const row = await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value, updated_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value, updated_at: now, version: sql<number>`settings.version + 1` }),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
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
