import { type Kysely, sql } from 'kysely';

/**
 * Features per account (decision 022 §4). A feature without a row has its catalogue default
 * (`ACCOUNT_FEATURES`), so a feature added to the catalogue needs no migration. The features of one
 * account change together under one version, kept apart from the account's own so that a feature
 * change does not turn an open account edit into a conflict.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_feature_versions')
    .addColumn('account_id', 'text', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('account_features')
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('feature_id', 'text', (col) =>
      col.notNull().check(sql`char_length(feature_id) between 1 and 64`),
    )
    .addColumn('enabled', 'boolean', (col) => col.notNull())
    .addColumn('end_date', 'date')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('account_features_pkey', ['account_id', 'feature_id'])
    .execute();
}
