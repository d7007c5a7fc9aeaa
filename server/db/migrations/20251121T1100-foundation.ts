import { type Kysely, sql } from 'kysely';

/**
 * The foundation tables: accounts, users and roles, licences, sign-in sessions and their refresh
 * tokens, sign-in throttling, token signing keys, settings and the audit trail.
 * Identifiers are `text` (the server writes UUIDs) so that a malformed id in a URL is simply not
 * found instead of failing a `uuid` cast.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('friendly_identifier', 'text', (col) => col.notNull().unique())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('partner_account_id', 'text', (col) => col.references('accounts.id').onDelete('restrict'))
    .addColumn('system_account', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('service_from', 'date', (col) => col.notNull())
    .addColumn('service_to', 'date')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('accounts_service_period', sql`service_to is null or service_to >= service_from`)
    .execute();
  await db.schema
    .createIndex('accounts_partner_account_id')
    .on('accounts')
    .column('partner_account_id')
    .execute();
  await db.schema.createIndex('accounts_name').on('accounts').column('name').execute();
  // At most one system account: setup creates it once, however many requests race.
  await db.schema
    .createIndex('accounts_single_system_account')
    .on('accounts')
    .column('system_account')
    .unique()
    .where(sql.ref('system_account'), '=', true)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_name', 'text', (col) => col.notNull())
    .addColumn('user_name_key', 'text', (col) => col.notNull().unique())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text')
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('date_format', 'text')
    .addColumn('access_scope', 'text', (col) => col.notNull())
    .addColumn('primary_account_id', 'text', (col) =>
      col.notNull().references('accounts.id').onDelete('restrict'),
    )
    .addColumn('password_hash', 'text')
    .addColumn('saml_username', 'text')
    .addColumn('oidc_username', 'text')
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_access_scope', sql`access_scope in ('system', 'partner', 'account')`)
    .addCheckConstraint('users_user_name_key_lower', sql`user_name_key = lower(user_name)`)
    .execute();
  await db.schema.createIndex('users_primary_account_id').on('users').column('primary_account_id').execute();

  await db.schema
    .createTable('user_accounts')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_accounts_pkey', ['user_id', 'account_id'])
    .execute();
  await db.schema.createIndex('user_accounts_account_id').on('user_accounts').column('account_id').execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('code', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('app_code', 'text', (col) => col.notNull())
    .addColumn('account_id', 'text', (col) => col.references('accounts.id').onDelete('cascade'))
    .addColumn('permissions', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('archived', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('roles_permissions_array', sql`jsonb_typeof(permissions) = 'array'`)
    .execute();
  // Built-in roles are shared by every account, so their code is unique among rows without one.
  await db.schema
    .createIndex('roles_built_in_code')
    .on('roles')
    .column('code')
    .unique()
    .where(sql.ref('account_id'), 'is', null)
    .execute();
  await db.schema.createIndex('roles_account_id').on('roles').column('account_id').execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (col) => col.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pkey', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role_id').on('user_roles').column('role_id').execute();

  await db.schema
    .createTable('licences')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('licence_id', 'text', (col) => col.notNull())
    .addColumn('licensee', 'text', (col) => col.notNull())
    .addColumn('valid_from', 'date', (col) => col.notNull())
    .addColumn('valid_to', 'date', (col) => col.notNull())
    .addColumn('seats', 'jsonb', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('key_fingerprint', 'text', (col) => col.notNull())
    .addColumn('installed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('installed_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addCheckConstraint('licences_validity', sql`valid_to >= valid_from`)
    .execute();
  await db.schema.createIndex('licences_installed_at').on('licences').column('installed_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('session_id', 'text', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('issued_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_session_id')
    .on('refresh_tokens')
    .column('session_id')
    .execute();

  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('window_started_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('blocked_until', 'timestamptz')
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (col) => col.primaryKey())
    .addColumn('algorithm', 'text', (col) => col.notNull())
    .addColumn('private_jwk', 'jsonb', (col) => col.notNull())
    .addColumn('public_jwk', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'jsonb', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('seq', 'bigint', (col) => col.notNull().unique().generatedAlwaysAsIdentity())
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('account_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('details', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('prev_hash', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .addCheckConstraint('audit_events_status', sql`status in ('success', 'failure')`)
    .execute();
  await db.schema.createIndex('audit_events_occurred_at').on('audit_events').column('occurred_at').execute();
  await db.schema
    .createIndex('audit_events_account_id')
    .on('audit_events')
    .columns(['account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_events_resource')
    .on('audit_events')
    .columns(['resource_type', 'resource_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'audit_events',
    'settings',
    'signing_keys',
    'sign_in_throttle',
    'refresh_tokens',
    'sessions',
    'licences',
    'user_roles',
    'roles',
    'user_accounts',
    'users',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
