import { type Kysely, sql } from 'kysely';

/**
 * Licences per account (decision 022): what each account was allocated of each licence type of an
 * application, the use its application reported, the version its changes name in If-Match, and the
 * history of every change. The system account's pool is the installed licence; its rows hold no
 * total but exist so that every change drawing from the system pool locks them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('licence_allocations')
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('app_code', 'text', (col) => col.notNull())
    .addColumn('feature', 'text', (col) => col.notNull())
    .addColumn('total_allocated', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`total_allocated >= -1`),
    )
    // The use the application reported; the platform counts metered types itself and ignores it.
    .addColumn('used', 'integer', (col) => col.notNull().defaultTo(0).check(sql`used >= 0`))
    .addPrimaryKeyConstraint('licence_allocations_pkey', ['account_id', 'app_code', 'feature'])
    .execute();
  // What a parent gave is summed over its children's rows of one type.
  await db.schema
    .createIndex('licence_allocations_app_feature')
    .on('licence_allocations')
    .columns(['app_code', 'feature'])
    .execute();

  await db.schema
    .createTable('account_licences')
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('app_code', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('account_licences_pkey', ['account_id', 'app_code'])
    .execute();

  await db.schema
    .createTable('licence_history')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('app_code', 'text', (col) => col.notNull())
    .addColumn('feature', 'text', (col) => col.notNull())
    // The signed change, and the total it made.
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('new_limit', 'integer', (col) => col.notNull())
    .addColumn('actor_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    // The actor's name when the change was made: it outlives the user, as the audit trail's does.
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('at', 'timestamptz', (col) => col.notNull())
    .execute();
  // Pages newest first (and the CSV oldest first) of one account's history.
  await db.schema
    .createIndex('licence_history_account_at')
    .on('licence_history')
    .columns(['account_id', 'at', 'id'])
    .execute();
}
