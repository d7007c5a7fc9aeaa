import { type Kysely, sql } from 'kysely';

/**
 * The offline console's server side: the records of requests sent with an Idempotency-Key (one per
 * caller and key, in progress until the response is stored) and each user's storage secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'jsonb')
    .addColumn('response_body', 'bytea')
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .addCheckConstraint('idempotency_keys_completed', sql`(response_status is null) = (completed_at is null)`)
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on('idempotency_keys')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('user_storage_secrets')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'bytea', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('user_storage_secrets_length', sql`octet_length(secret) = 32`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_storage_secrets').execute();
  await db.schema.dropTable('idempotency_keys').execute();
}
