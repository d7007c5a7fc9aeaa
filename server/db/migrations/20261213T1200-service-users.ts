import { type Kysely, sql } from 'kysely';

/**
 * Service users (decision 018 §1, §2, slice 6). They live in `users` beside people, so user names
 * stay one namespace and one principal loader serves both; `kind` tells them apart, and sign-in,
 * refresh and sessions accept people only. What only a service user has (its description and end
 * date) is one row of `service_users`, removed with its user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('person'))
    .execute();
  await db.schema
    .alterTable('users')
    .addCheckConstraint('users_kind', sql`kind in ('person', 'service')`)
    .execute();
  await db.schema
    .createTable('service_users')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    // The service user works through 23:59:59 UTC of this day; null for no end date.
    .addColumn('end_date', 'date')
    .execute();
}
