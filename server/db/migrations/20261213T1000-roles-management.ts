import { type Kysely, sql } from 'kysely';

/**
 * Roles management (decision 018 §2, slice 4): what a custom role's definition needs beyond its
 * permissions (description, the role it was cloned from), the version its ETag carries, who made and
 * archived it, and a unique name among the active custom roles of one account and application. The
 * name of a built-in role is checked by the route, since the built-in roles belong to no account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('roles')
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('cloned_from', 'text', (col) => col.references('roles.id').onDelete('set null'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('updated_at', 'timestamptz')
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('archived_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .execute();
  await sql`create unique index roles_custom_name on roles (account_id, app_code, lower(name))
    where account_id is not null and not archived`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('roles_custom_name').ifExists().execute();
  await db.schema
    .alterTable('roles')
    .dropColumn('description')
    .dropColumn('cloned_from')
    .dropColumn('version')
    .dropColumn('updated_at')
    .dropColumn('created_by')
    .dropColumn('archived_at')
    .dropColumn('archived_by')
    .execute();
}
