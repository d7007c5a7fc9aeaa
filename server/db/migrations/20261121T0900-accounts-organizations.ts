import { type Kysely, sql } from 'kysely';
import { trigramExtensionSchema } from '../trigram.ts';

/**
 * Indexes of the accounts list (GET tenants) at 100,000 accounts; measured in bench/run.ts.
 * - One per sort order, each ending in `id` (the tie-breaker) so a page is an index range scan. The
 *   end date sorts as `coalesce(service_to, 'infinity')`: an account without an end date ends last,
 *   and the key is never null, which keyset pagination (the CSV export) needs.
 * - `coalesce(partner_account_id, id)` is exactly the set a partner sees: its own account and the
 *   accounts under it.
 */
const ACCOUNT_LIST_INDEXES = {
  accounts_sort_name: [sql`lower(name)`, sql`id`],
  accounts_sort_status: [sql`(not active)`, sql`lower(name)`, sql`id`],
  accounts_sort_type: [sql`type`, sql`lower(name)`, sql`id`],
  accounts_sort_start_date: [sql`service_from`, sql`id`],
  accounts_sort_end_date: [sql`coalesce(service_to, 'infinity'::date)`, sql`id`],
  accounts_partner_visibility: [sql`coalesce(partner_account_id, id)`],
  // The export sorted by partner name walks each partner's accounts in name order.
  accounts_partner_name: [sql`partner_account_id`, sql`lower(name)`, sql`id`],
};

/**
 * Trigram indexes serve the case-insensitive substring filters on name (the partner's name too) and
 * friendly identifier; without pg_trgm those filters scan the table.
 */
const TRIGRAM_INDEXED_COLUMNS = ['name', 'friendly_identifier'] as const;
const trigramIndexName = (column: string) => `accounts_${column}_trigram`;

async function createAccountListIndexes(db: Kysely<unknown>): Promise<void> {
  for (const [name, keys] of Object.entries(ACCOUNT_LIST_INDEXES)) {
    await sql`create index ${sql.id(name)} on accounts (${sql.join(keys)})`.execute(db);
  }
  const trigramSchema = await trigramExtensionSchema(db);
  if (trigramSchema === null) return;
  for (const column of TRIGRAM_INDEXED_COLUMNS) {
    await sql`create index ${sql.id(trigramIndexName(column))} on accounts
      using gin (${sql.id(column)} ${sql.id(trigramSchema, 'gin_trgm_ops')})`.execute(db);
  }
}

async function dropAccountListIndexes(db: Kysely<unknown>): Promise<void> {
  const names = [...Object.keys(ACCOUNT_LIST_INDEXES), ...TRIGRAM_INDEXED_COLUMNS.map(trigramIndexName)];
  for (const name of names) await db.schema.dropIndex(name).ifExists().execute();
}

/**
 * Accounts administration: federation with an external identity product and the account's sign-in
 * flags on `accounts`; the indexes of the accounts list; organizations of an account and their contacts.
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
  await createAccountListIndexes(db);

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
  await dropAccountListIndexes(db);
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
