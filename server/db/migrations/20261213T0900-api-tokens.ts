import { type Kysely, sql } from 'kysely';

/**
 * API tokens (decision 018 §2, decision 036, decision 018 slice 5). Only the SHA-256 of a token is kept, with its last four
 * characters for lists; every request authenticated by one looks it up by that hash, which the unique
 * constraint indexes. A revoked token keeps its row for the list and the trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull().check(sql`char_length(name) between 1 and 100`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('hint', 'text', (col) => col.notNull())
    .addColumn('end_date', 'date')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  // A name tells a user's working tokens apart; a revoked one frees its name.
  await db.schema
    .createIndex('api_tokens_user_name')
    .unique()
    .on('api_tokens')
    .columns(['user_id', 'name'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  // A user's list, newest first, and the cascade.
  await db.schema
    .createIndex('api_tokens_user')
    .on('api_tokens')
    .columns(['user_id', 'created_at'])
    .execute();
}
