import { type Kysely, sql } from 'kysely';

/**
 * Accounts administration: federation with an external identity product and the account's sign-in
 * flags on `accounts`; organizations of an account and their contacts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('federation_provider', 'text')
    .addColumn('federated_account_id', 'text')
    .addColumn('federated_account_name', 'text')
    .addColumn('federated_account_details_url', 'text')
    .addColumn('federation_status', 'text')
    .addColumn('mfa_enabled', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('allow_user_creation_via_sso', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addCheckConstraint(
      'accounts_federation_status',
      sql`federation_status is null or federation_status in ('linked', 'unlinked')`,
    )
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('address2', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('zip_code', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('organizations_account_id_name')
    .on('organizations')
    .columns(['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('organization_contacts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) =>
      col.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('title', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('organization_contacts_type', sql`type in ('technical', 'administrative')`)
    .execute();
  await db.schema
    .createIndex('organization_contacts_organization_id')
    .on('organization_contacts')
    .columns(['organization_id', 'last_name', 'first_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organization_contacts').execute();
  await db.schema.dropTable('organizations').execute();
  await db.schema.alterTable('accounts').dropConstraint('accounts_federation_status').execute();
  await db.schema
    .alterTable('accounts')
    .dropColumn('federation_provider')
    .dropColumn('federated_account_id')
    .dropColumn('federated_account_name')
    .dropColumn('federated_account_details_url')
    .dropColumn('federation_status')
    .dropColumn('mfa_enabled')
    .dropColumn('allow_user_creation_via_sso')
    .execute();
}
