import { type Kysely, sql } from 'kysely';

/**
 * What the refresh-token reuse interval needs (decision 003, "A lost answer is not a theft"): the
 * client that spent a token, and its successor sealed under the spent token itself, so that the
 * same client presenting the same token again within seconds is answered the same successor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refresh_tokens add column spent_by text`.execute(db);
  await sql`alter table refresh_tokens add column successor_sealed text`.execute(db);
}
