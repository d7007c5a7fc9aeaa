import { type Kysely, sql } from 'kysely';

/** Serialises `create extension pg_trgm` of migrations running at once on one PostgreSQL database. */
const TRIGRAM_EXTENSION_LOCK = 0x7472676d;

/**
 * The schema holding pg_trgm, installing it in `public` when it is missing and this role may; null when
 * it cannot be had (PGlite opened without the extension, a role without the right). An extension is
 * shared by every schema of the database (each test run has a schema of its own), so its operator class
 * is always named with its schema. Migrations that index text for substring filters call it.
 */
export async function trigramExtensionSchema(db: Kysely<unknown>): Promise<string | null> {
  await sql`select pg_advisory_xact_lock(${TRIGRAM_EXTENSION_LOCK})`.execute(db);
  const installed = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const schema = installed.rows[0]?.schema;
  if (schema !== undefined) return schema;
  // Checked first: a failing `create extension` would abort the migration's transaction.
  const allowed = await sql<{ allowed: boolean }>`
    select exists (select 1 from pg_available_extension_versions where name = 'pg_trgm')
      and has_schema_privilege('public', 'CREATE')
      and (
        (select rolsuper from pg_roles where rolname = current_user)
        or (
          has_database_privilege(current_database(), 'CREATE')
          and exists (select 1 from pg_available_extension_versions where name = 'pg_trgm' and trusted)
        )
      ) as allowed`.execute(db);
  if (allowed.rows[0]?.allowed !== true) return null;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  return 'public';
}
