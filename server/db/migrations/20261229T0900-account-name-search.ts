import { type Kysely, sql } from 'kysely';
import { trigramExtensionSchema } from '../trigram.ts';

/**
 * The accounts list's name filters (the account's name and its partner's) match `name_lower`, the
 * name in lower case as a stored column the database generates, with `like lower(pattern)`, instead
 * of `name ilike pattern` (decision 024, "Throughput at fifty clients"). In a UTF-8 database ILIKE
 * lower-cases the pattern and every row's name and then compares them as LIKE does, so the answers
 * are the same; but lower-casing each row's name on every request was two thirds of the typical list
 * statement at 1,000,000 accounts (the bounded count reads about 4,700 rows, the page about 1,400).
 *
 * The trigram index for selective name filters moves to the new column; the friendly identifier's
 * keeps ILIKE and its index. Adding a stored column rewrites the table: about 50 s at 1,000,000
 * accounts on a busy machine.
 */

const OLD_TRIGRAM_INDEX = 'accounts_name_trigram';
const NEW_TRIGRAM_INDEX = 'accounts_name_lower_trigram';

async function createTrigramIndex(db: Kysely<unknown>, name: string, column: string): Promise<void> {
  const trigramSchema = await trigramExtensionSchema(db);
  // Without pg_trgm (PGlite opened without it, a role that may not install it) the filters scan.
  if (trigramSchema === null) return;
  await sql`create index ${sql.id(name)} on accounts
    using gin (${sql.id(column)} ${sql.id(trigramSchema, 'gin_trgm_ops')})`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts add column name_lower text not null
    generated always as (lower(name)) stored`.execute(db);
  await db.schema.dropIndex(OLD_TRIGRAM_INDEX).ifExists().execute();
  await createTrigramIndex(db, NEW_TRIGRAM_INDEX, 'name_lower');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex(NEW_TRIGRAM_INDEX).ifExists().execute();
  await db.schema.alterTable('accounts').dropColumn('name_lower').execute();
  await createTrigramIndex(db, OLD_TRIGRAM_INDEX, 'name');
}
