import type { Kysely } from 'kysely';

/**
 * Browsers a user has signed in from (docs/decisions/005-sign-in-throttling.md): the cookie holds a
 * random token, the table only its SHA-256 (as refresh tokens), so a copy of the database lets nobody pass as a device.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trusted_devices')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('trusted_devices_expires_at')
    .on('trusted_devices')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('trusted_devices_user_id').on('trusted_devices').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trusted_devices').execute();
}
