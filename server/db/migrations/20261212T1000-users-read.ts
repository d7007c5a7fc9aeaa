import { type Kysely, sql } from 'kysely';
import { trigramExtensionSchema } from '../trigram.ts';

/**
 * Indexes of the users list (GET user) at 100,000 users; measured in bench/run.ts. One per sort order,
 * each ending in `id` (the tie-breaker) so a page is an index range scan. The last sign-in sorts as
 * `coalesce(last_sign_in_at, '-infinity')`: a user who never signed in comes first ascending and last
 * descending (as `desc nulls last` would), and the key is never null, which keyset pagination (the CSV
 * export) needs.
 */
const FULL_NAME = sql`lower(first_name || ' ' || last_name)`;
const USER_LIST_INDEXES = {
  users_sort_name: [FULL_NAME, sql`id`],
  users_sort_user_name: [sql`user_name_key`, sql`id`],
  users_sort_email: [sql`lower(email)`, sql`id`],
  users_sort_last_sign_in: [sql`coalesce(last_sign_in_at, '-infinity'::timestamptz)`, sql`id`],
  users_sort_created: [sql`created_at`, sql`id`],
};

/** Trigram indexes serve the `q` filter, a case-insensitive substring of user name, e-mail or full name. */
const USER_TRIGRAM_INDEXES = {
  users_user_name_trigram: sql`user_name_key`,
  users_email_trigram: sql`lower(email)`,
  users_full_name_trigram: FULL_NAME,
};

/**
 * The users read API (decision 018 §2, slice 1): the columns the user record shows, the last sign-in
 * written by POST auth/login, and the list's indexes. `email_verified_at` starts as `created_at` for
 * existing users, whose passwords were set by whoever created them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('password_changed_at', 'timestamptz')
    .addColumn('last_sign_in_at', 'timestamptz')
    .addColumn('aliases', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('default_application', 'text')
    .addColumn('agreement_accepted_at', 'timestamptz')
    .addColumn('agreement_locale', 'text')
    .addColumn('mfa_enrolled_at', 'timestamptz')
    .addColumn('mfa_locked_until', 'timestamptz')
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('users')
    .addCheckConstraint('users_aliases_object', sql`jsonb_typeof(aliases) = 'object'`)
    .execute();
  await sql`update users set email_verified_at = created_at`.execute(db);

  for (const [name, keys] of Object.entries(USER_LIST_INDEXES)) {
    await sql`create index ${sql.id(name)} on users (${sql.join(keys)})`.execute(db);
  }
  const trigramSchema = await trigramExtensionSchema(db);
  if (trigramSchema === null) return;
  for (const [name, expression] of Object.entries(USER_TRIGRAM_INDEXES)) {
    await sql`create index ${sql.id(name)} on users
      using gin ((${expression}) ${sql.id(trigramSchema, 'gin_trgm_ops')})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [...Object.keys(USER_LIST_INDEXES), ...Object.keys(USER_TRIGRAM_INDEXES)]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
  await db.schema.alterTable('users').dropConstraint('users_aliases_object').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('email_verified_at')
    .dropColumn('password_changed_at')
    .dropColumn('last_sign_in_at')
    .dropColumn('aliases')
    .dropColumn('default_application')
    .dropColumn('agreement_accepted_at')
    .dropColumn('agreement_locale')
    .dropColumn('mfa_enrolled_at')
    .dropColumn('mfa_locked_until')
    .dropColumn('created_by')
    .execute();
}
