import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { type DatabaseLocation, openDatabase } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import type { Database } from '../server/db/schema.ts';

/**
 * The accounts and users lists at scale: a platform database with 100,000 accounts and 100,000 users,
 * on PGlite and on a PostgreSQL database the bench creates for itself and drops afterwards.
 */

export const BENCH_ACCOUNTS = 100_000;
export const BENCH_PARTNERS = 300;
export const BENCH_USERS = 100_000;

const FIRST_WORDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Wonka',
  'Oscorp',
  'Aperture',
  'Massive',
  'Dynamic',
  'Pied',
  'Gringotts',
  'Monarch',
  'Nakatomi',
];
const SECOND_WORDS = [
  'Labs',
  'Systems',
  'Holdings',
  'Trust',
  'Devices',
  'Networks',
  'Security',
  'Health',
  'Bank',
  'Energy',
  'Logistics',
  'Media',
];

const words = (list: readonly string[]) => sql`array[${sql.join(list)}]::text[]`;

/**
 * Migrates the database at `location` and fills it with `BENCH_PARTNERS` partners and standard
 * accounts up to `BENCH_ACCOUNTS`, in two `insert … select from generate_series` statements: three in
 * five accounts under a partner, one in seven inactive, end dates from a month ago to four years
 * ahead, one name in twenty containing "Acme". `g / 20` keeps the end dates of those accounts from
 * falling on every twentieth day only (13 × 20k mod 1500), which left the latest days without any.
 */
export async function seedAccounts(
  location: DatabaseLocation,
  accounts = BENCH_ACCOUNTS,
  { users = true }: { users?: boolean } = {},
): Promise<void> {
  const { db, close } = await openDatabase(location);
  try {
    await migrateToLatest(db);
    await sql`
      insert into accounts (id, name, display_name, friendly_identifier, type, locale, service_from,
        service_to, created_at, updated_at)
      select 'bench-partner-' || g, 'Partner ' || (${words(FIRST_WORDS)})[1 + g % ${FIRST_WORDS.length}] || '-' || g,
        'Partner ' || g, 'bench-partner-' || g, 'partner', 'en_US', date '2023-01-01',
        current_date + 365 + g % 700, now(), now()
      from generate_series(1, ${BENCH_PARTNERS}) as g`.execute(db);
    await sql`
      insert into accounts (id, name, display_name, active, friendly_identifier, type, partner_account_id,
        locale, service_from, service_to, created_at, updated_at)
      select 'bench-account-' || g,
        (${words(FIRST_WORDS)})[1 + g % ${FIRST_WORDS.length}] || ' '
          || (${words(SECOND_WORDS)})[1 + (g / ${FIRST_WORDS.length}) % ${SECOND_WORDS.length}] || ' ' || g,
        'Account ' || g, g % 7 <> 0, 'bench-account-' || g, 'standard',
        case when g % 5 < 3 then 'bench-partner-' || (1 + g % ${BENCH_PARTNERS}) end, 'en_US',
        date '2023-01-01' + g % 365, current_date - 30 + (g * 13 + g / 20) % 1500, now(), now()
      from generate_series(1, ${accounts - BENCH_PARTNERS}) as g`.execute(db);
    await sql`analyze accounts`.execute(db);
    if (users) await seedUsers(db);
  } finally {
    await close();
  }
}

/**
 * `BENCH_USERS` account-scope users spread over the standard accounts, in one `insert … select from
 * generate_series`: one in eleven disabled, one in thirteen invited (no password, unverified), one in
 * four never signed in, one first name in twenty "Acme". No password hashes: they never sign in.
 */
async function seedUsers(db: Kysely<Database>): Promise<void> {
  const standardAccounts = BENCH_ACCOUNTS - BENCH_PARTNERS;
  await sql`
    insert into users (id, user_name, user_name_key, first_name, last_name, email, locale, access_scope,
      primary_account_id, active, email_verified_at, last_sign_in_at, created_at, updated_at)
    select 'bench-user-' || g, 'User.' || g, 'user.' || g,
      (${words(FIRST_WORDS)})[1 + g % ${FIRST_WORDS.length}], 'Person ' || g,
      'user' || g || '@' || lower((${words(SECOND_WORDS)})[1 + g % ${SECOND_WORDS.length}]) || '.example',
      'en_US', 'account', 'bench-account-' || (1 + g % ${standardAccounts}), g % 11 <> 0,
      case when g % 13 <> 0 then now() end,
      case when g % 4 <> 0 then now() - (g % 5000) * interval '1 minute' end,
      now() - g * interval '1 minute', now()
    from generate_series(1, ${BENCH_USERS}) as g`.execute(db);
  await sql`analyze users`.execute(db);
}

export interface BenchPostgres {
  url: string;
  drop: () => Promise<void>;
}

function canReach(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 1000 });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const randomName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A database of its own on the server `BENCH_DATABASE_URL` names, whose role may create databases. */
async function databaseFromUrl(adminUrl: string): Promise<BenchPostgres> {
  const database = randomName('bench');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${database} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

function asPostgresSuperuser(statement: string): void {
  execFileSync('su', ['postgres', '-c', `psql -v ON_ERROR_STOP=1 -q -c "${statement}"`], { stdio: 'pipe' });
}

/**
 * A role with a random password and a database it owns on the local server, made through the
 * `postgres` superuser as the project's test setup does (docs/decisions/006-testing.md); both are
 * dropped afterwards. Identifiers and password are hex, so they need no quoting.
 */
function localDatabase(): BenchPostgres {
  const role = randomName('bench');
  const password = randomBytes(16).toString('hex');
  asPostgresSuperuser(`create role ${role} login password '${password}'`);
  asPostgresSuperuser(`create database ${role} owner ${role}`);
  return {
    url: `postgres://${role}:${password}@127.0.0.1:5432/${role}`,
    drop: async () => {
      asPostgresSuperuser(`drop database if exists ${role} with (force)`);
      asPostgresSuperuser(`drop role if exists ${role}`);
    },
  };
}

/** A PostgreSQL database for the bench, or why there is none. */
export async function benchPostgres(): Promise<BenchPostgres | { skipped: string }> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) return databaseFromUrl(adminUrl);
  if (!(await canReach('127.0.0.1', 5432))) {
    return { skipped: 'nothing answers on 127.0.0.1:5432 and BENCH_DATABASE_URL is not set' };
  }
  if (process.getuid?.() !== 0) {
    return {
      skipped:
        'PostgreSQL answers on 127.0.0.1:5432, but only root can create a role there through `su postgres`; ' +
        'set BENCH_DATABASE_URL to a role that may create databases',
    };
  }
  try {
    return localDatabase();
  } catch (error) {
    return { skipped: `creating a role and database through \`su postgres\` failed: ${String(error)}` };
  }
}
