import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Serialises the setup steps of every server process: the check "no administrator yet" and the
 * write that follows happen under it, so two racing requests cannot both pass the check.
 */
const SETUP_LOCK = 0x73657475;

/** Whether setup is over: an active system administrator exists. */
export async function administratorExists(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('access_scope', '=', 'system')
    .where('active', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Holds the setup lock until the transaction ends (see SETUP_LOCK). */
export async function takeSetupLock(trx: Kysely<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${SETUP_LOCK})`.execute(trx);
}
