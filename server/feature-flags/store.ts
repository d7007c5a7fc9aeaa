import { type Kysely, sql } from 'kysely';
import * as v from 'valibot';
import { DEFAULT_FEATURE_FLAGS, FEATURE_FLAGS, type FeatureFlag } from '../../contract/feature-flags.ts';
import type { Database } from '../db/schema.ts';

/** Settings row of the flags: an object of the flags a system administrator changed, by name. */
const SETTINGS_KEY = 'feature_flags';

const storedFlagsSchema = v.record(v.string(), v.boolean());

/**
 * Every flag with its state: the stored one, else the default. Names stored by another version of
 * the platform and no longer known are ignored.
 */
export async function readFeatureFlags(db: Kysely<Database>): Promise<Record<FeatureFlag, boolean>> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  const flags = { ...DEFAULT_FEATURE_FLAGS };
  if (!row) return flags;
  const parsed = v.safeParse(storedFlagsSchema, row.value);
  if (!parsed.success) throw new Error('The stored feature flags do not match their schema.');
  for (const name of FEATURE_FLAGS) {
    const stored = parsed.output[name];
    if (stored !== undefined) flags[name] = stored;
  }
  return flags;
}

/**
 * Sets one flag. The stored object is merged in SQL (`||`), so two administrators changing two
 * different flags at once both keep their change.
 */
export async function saveFeatureFlag(
  db: Kysely<Database>,
  name: FeatureFlag,
  enabled: boolean,
  now: Date,
): Promise<void> {
  const value = JSON.stringify({ [name]: enabled });
  await db
    .insertInto('settings')
    .values({ key: SETTINGS_KEY, value, updated_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: sql`settings.value || excluded.value`,
        updated_at: now,
        version: sql<number>`settings.version + 1`,
      }),
    )
    .execute();
}
