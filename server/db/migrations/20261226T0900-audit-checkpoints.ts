import { type Kysely, sql } from 'kysely';

/**
 * The audit log (decision 023): the client's User-Agent on each event, an index for the user filter,
 * the public keys that sign checkpoints, and the signed checkpoints of the chain head. The private
 * keys are not here: whoever can write this database must not be able to sign a checkpoint.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('user_agent', 'text').execute();
  await db.schema
    .createIndex('audit_events_actor_id')
    .on('audit_events')
    .columns(['actor_id', 'seq'])
    .execute();
  await db.schema
    .createTable('audit_checkpoint_keys')
    .addColumn('key_id', 'text', (col) => col.primaryKey())
    .addColumn('public_key_pem', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('audit_checkpoints')
    .addColumn('seq', 'bigint', (col) => col.primaryKey())
    .addColumn('head_hash', 'text', (col) => col.notNull())
    .addColumn('signed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('key_id', 'text', (col) => col.notNull().references('audit_checkpoint_keys.key_id'))
    .addColumn('signature', 'text', (col) => col.notNull())
    .addCheckConstraint('audit_checkpoints_head_hash', sql`head_hash ~ '^[0-9a-f]{64}$'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_checkpoints').execute();
  await db.schema.dropTable('audit_checkpoint_keys').execute();
  await db.schema.dropIndex('audit_events_actor_id').execute();
  await db.schema.alterTable('audit_events').dropColumn('user_agent').execute();
}
