import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { apiPaths } from '../contract/paths.ts';
import { formatListCursor } from '../contract/schemas/query.ts';
import type { TenantList } from '../contract/schemas/tenants.ts';
import {
  accountsWithPartner,
  listTenants,
  selectSummary,
  type TenantFilters,
} from '../server/accounts/list.ts';
import type { Database } from '../server/db/schema.ts';
import type { Principal } from '../server/identity/principal.ts';
import { type LoadResult, load } from './load.ts';
import { signedInToken, startPlatform } from './servers.ts';
import { benchPostgres, seedAccounts } from './tenants.ts';

/**
 * `npm run bench lists`: the accounts list at 10,000, 100,000 and 1,000,000 accounts on PostgreSQL
 * (decision 024). For each size: a typical page (a filter, a sort, ten rows) from one client and
 * from fifty, beside the very SQL the server ran for it (captured from the server's own list code)
 * run by pgbench with as many clients, and beside the exact count every page used to run; a deep
 * page (90% into the list) by offset and through the cursor the console sends. At the largest size,
 * the CSV export of every account beside `psql \copy` of the same rows. Ratios are printed, never
 * asserted. BENCH_LIST_SIZES (comma-separated) picks other sizes.
 */

const SIZES = (process.env.BENCH_LIST_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const CLIENTS = 50;
const PGBENCH_SECONDS = 8;

/** The accounts list as the console asks for it (bench/run.ts's query): a filter, a sort, a page. */
const TYPICAL_FILTERS: TenantFilters = { active: 'true', name: 'acme' };
const TYPICAL_QUERY = '?active=true&name=acme&sort=end_date:desc&limit=10';

const SYSTEM_PRINCIPAL: Principal = {
  userId: 'bench',
  userName: 'bench',
  accessScope: 'system',
  primaryAccountId: 'bench',
  credential: { kind: 'session', sessionId: 'bench' },
  permissions: new Set(),
};

const quote = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `'${text.replaceAll("'", "''")}'`;
};

/** A compiled statement with its parameters written in, as pgbench's simple protocol needs. */
function inline(sqlText: string, parameters: readonly unknown[]): string {
  return sqlText.replace(/\$(\d+)/g, (_, index: string) => quote(parameters[Number(index) - 1]));
}

/** What pgbench runs beside the server: the list's SQL now, and the SQL of a page before decision 024. */
interface ListSql {
  /** Every statement `listTenants` ran for the typical page, captured from the server's own list code. */
  now: string[];
  /** The same page without a count, then the exact count every page ran before decision 024. */
  before: string[];
}

/** The statements of the typical page, the list's ones captured by running `listTenants` on `url`. */
async function listStatements(url: string, today: string): Promise<ListSql> {
  const captured: string[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(inline(event.query.sql, event.query.parameters));
    },
  });
  try {
    await listTenants(
      db,
      SYSTEM_PRINCIPAL,
      TYPICAL_FILTERS,
      { limit: 10, offset: 0, sort: { column: 'end_date', direction: 'desc' } },
      today,
    );
    const now = captured.splice(0);
    // Before decision 024: the page by itself, then every matching row counted. Names are matched as
    // the list matches them now (its trigram index is on `name_lower`), so only the count differs.
    const typical = selectSummary(accountsWithPartner(db, SYSTEM_PRINCIPAL))
      .where('a.active', '=', true)
      .where(sql<boolean>`${sql.ref('a.name_lower')} like lower('%acme%')`);
    const page = typical
      .orderBy(sql`coalesce(${sql.ref('a.service_to')}, 'infinity'::date)`, 'desc')
      .orderBy('a.id', 'desc')
      .limit(10)
      .compile();
    const exact = typical
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .compile();
    return { now, before: [page, exact].map((query) => inline(query.sql, query.parameters)) };
  } finally {
    await db.destroy();
  }
}

interface PgbenchResult {
  tps: number;
  latencyMs: number;
}

function pgbench(url: string, script: string, clients: number): PgbenchResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-sql-'));
  try {
    const file = path.join(dir, 'page.sql');
    writeFileSync(file, `${script.replaceAll('\n', ' ')};\n`);
    const output = execFileSync(
      'pgbench',
      ['-n', '-f', file, '-c', String(clients), '-j', '2', '-T', String(PGBENCH_SECONDS), url],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tps = /tps = ([\d.]+)/.exec(output)?.[1];
    const latency = /latency average = ([\d.]+) ms/.exec(output)?.[1];
    if (tps === undefined || latency === undefined) throw new Error(`pgbench said: ${output}`);
    return { tps: Number(tps), latencyMs: Number(latency) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(2).padStart(8)} ms`;
const perSecond = (value: number) => `${value.toFixed(0).padStart(6)} /s`;

function printLoad(label: string, result: LoadResult): void {
  console.info(
    `  ${label.padEnd(44)} ${perSecond(result.requestsPerSecond)}   p50 ${ms(result.p50Ms)}   p99 ${ms(result.p99Ms)}`,
  );
}

function printSql(label: string, result: PgbenchResult): void {
  console.info(`  ${label.padEnd(44)} ${perSecond(result.tps)}   avg ${ms(result.latencyMs)}`);
}

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Seconds to fetch the export of every account by name over HTTP with `acceptEncoding`, and its size
 * decoded, as a browser saving the file would. On a connection of its own: one kept alive from the
 * steps before may have sat idle for about the server's keep-alive time (65 s), and the server can
 * close it just as it is reused.
 */
async function timeExport(
  origin: string,
  headers: Record<string, string>,
  acceptEncoding: string,
): Promise<{ seconds: number; bytes: number; coding: string }> {
  const started = performance.now();
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(
      `${origin}${apiPaths.tenants.export}?sort=name:asc`,
      { headers: { ...headers, 'accept-encoding': acceptEncoding }, agent: false },
      resolve,
    ).once('error', reject);
  });
  if (response.statusCode !== 200) throw new Error(`GET export: ${response.statusCode}`);
  const coding = response.headers['content-encoding'] ?? 'none';
  const decoders: Record<string, () => Transform> = { gzip: createGunzip, br: createBrotliDecompress };
  const decoder = decoders[coding];
  let bytes = 0;
  for await (const chunk of decoder ? response.pipe(decoder()) : response)
    bytes += (chunk as Buffer).byteLength;
  return { seconds: (performance.now() - started) / 1000, bytes, coding };
}

/** Seconds `psql \copy` takes to write the export's rows (every account and its partner, by name). */
function timePsqlCopy(url: string): number {
  const copy = `\\copy (select a.id, a.name, a.display_name, a.active, a.friendly_identifier, a.service_from,
    a.service_to, a.locale, a.type, a.system_account, a.partner_account_id, p.name, a.federated_account_id,
    a.federation_status, a.federated_account_details_url, a.version from accounts a
    left join accounts p on p.id = a.partner_account_id order by lower(a.name), a.id) to '/dev/null' csv`;
  const started = performance.now();
  const psql = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-c', copy.replaceAll('\n', ' '), url], {
    encoding: 'utf8',
  });
  if (psql.status !== 0) throw new Error(`psql: ${psql.stderr}`);
  return (performance.now() - started) / 1000;
}

/**
 * The export of every account by name over HTTP, uncompressed and in each coding the server sends,
 * beside `psql \copy` of the same rows (timed before and after the exports, the ratio against their
 * mean, since a shared machine drifts).
 */
async function benchExport(origin: string, headers: Record<string, string>, url: string): Promise<void> {
  const copyBefore = timePsqlCopy(url);
  const exports = [];
  for (const acceptEncoding of ['identity', 'gzip', 'br']) {
    exports.push({ acceptEncoding, ...(await timeExport(origin, headers, acceptEncoding)) });
  }
  const copyAfter = timePsqlCopy(url);
  const copySeconds = (copyBefore + copyAfter) / 2;
  console.info(
    `  psql \\copy of the export's rows: ${copyBefore.toFixed(2)} s before the exports, ${copyAfter.toFixed(2)} s after`,
  );
  for (const { acceptEncoding, seconds, bytes, coding } of exports) {
    console.info(
      `  CSV export, every account by name, Accept-Encoding ${acceptEncoding} (sent ${coding}): ` +
        `${seconds.toFixed(2)} s (${(bytes / 1e6).toFixed(0)} MB); ratio ${(seconds / copySeconds).toFixed(2)} × psql \\copy`,
    );
  }
}

async function benchSize(size: number): Promise<void> {
  const postgres = await benchPostgres();
  if ('skipped' in postgres) {
    console.info(`\nPostgreSQL: skipped, ${postgres.skipped}.`);
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-data-'));
  try {
    const seeding = performance.now();
    await seedAccounts({ databaseUrl: postgres.url }, size, { users: false });
    // A table of a million accounts in use has been vacuumed; left to autovacuum, the freshly loaded
    // table is vacuumed while the figures are taken, on the same cores.
    execFileSync('psql', ['-q', '-c', 'vacuum analyze accounts', postgres.url], { stdio: 'pipe' });
    console.info(
      `\n${size.toLocaleString('en')} accounts on PostgreSQL, seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const platform = await startPlatform(dataDir, postgres.url);
    try {
      const headers = { authorization: `Bearer ${await signedInToken(platform.origin, dataDir)}` };
      const list = `${platform.origin}${apiPaths.tenants.list}`;
      const typical = `${list}${TYPICAL_QUERY}`;
      const first = await getJson<TenantList>(typical, headers);
      console.info(
        `  typical page ${TYPICAL_QUERY}: total ${first.total}${first.total_is_lower_bound ? ' (lower bound)' : ''}`,
      );
      // Warm-up, not measured: at fifty clients the first thousand or so requests after a start were
      // up to a third slower than the next thousands, in Node's CPU per request (code being optimised).
      await load({ url: typical, headers, requests: 2000, concurrency: CLIENTS });
      const one = await load({ url: typical, headers, requests: 300, concurrency: 1 });
      const many = await load({ url: typical, headers, requests: 3000, concurrency: CLIENTS });
      const statements = await listStatements(postgres.url, new Date().toISOString().slice(0, 10));
      if (statements.now.length === 0) throw new Error('The list ran no statement.');
      const script = statements.now.join(';\n');
      const beforeScript = statements.before.join(';\n');
      const sqlOne = pgbench(postgres.url, script, 1);
      const sqlMany = pgbench(postgres.url, script, CLIENTS);
      const exactOne = pgbench(postgres.url, beforeScript, 1);
      const exactMany = pgbench(postgres.url, beforeScript, CLIENTS);
      const shape =
        statements.now.length === 1
          ? 'page + window count, one statement'
          : `${statements.now.length} statements`;
      printLoad('GET typical page, 1 client', one);
      printSql(`  its SQL (${shape}) by pgbench`, sqlOne);
      printSql('  page + exact count by pgbench (before)', exactOne);
      printLoad(`GET typical page, ${CLIENTS} clients`, many);
      printSql('  its SQL by pgbench', sqlMany);
      printSql('  page + exact count by pgbench (before)', exactMany);
      console.info(
        `  server / its SQL: ${(one.p50Ms / sqlOne.latencyMs).toFixed(2)} × the latency (1 client), ` +
          `${(many.requestsPerSecond / sqlMany.tps).toFixed(2)} × the throughput (${CLIENTS} clients); ` +
          `window / exact count SQL: ${(sqlMany.tps / exactMany.tps).toFixed(1)} × the throughput`,
      );

      const deep = Math.floor(size * 0.9);
      const previous = await getJson<TenantList>(`${list}?sort=name:asc&limit=1&offset=${deep - 1}`, headers);
      const last = previous.items[0];
      if (last === undefined) throw new Error('No row before the deep page.');
      const byOffset = `${list}?sort=name:asc&limit=10&offset=${deep}`;
      const byCursor = `${byOffset}&after=${encodeURIComponent(formatListCursor({ position: deep, id: last.id }))}`;
      const [a, b] = await Promise.all([
        getJson<TenantList>(byOffset, headers),
        getJson<TenantList>(byCursor, headers),
      ]);
      if (JSON.stringify(a.items) !== JSON.stringify(b.items)) throw new Error('The deep pages differ.');
      // Few: at a million rows each takes seconds.
      const offsetLoad = await load({ url: byOffset, headers, requests: 10, concurrency: 1 });
      const cursorLoad = await load({ url: byCursor, headers, requests: 300, concurrency: 1 });
      printLoad(`GET page at ${deep.toLocaleString('en')} by offset`, offsetLoad);
      printLoad(`GET page at ${deep.toLocaleString('en')} after a cursor`, cursorLoad);
      console.info(`  offset / cursor: ${(offsetLoad.p50Ms / cursorLoad.p50Ms).toFixed(1)} × the median`);
      if (size === Math.max(...SIZES)) await benchExport(platform.origin, headers, postgres.url);
    } finally {
      await platform.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await postgres.drop();
  }
}

export async function benchLists(): Promise<void> {
  for (const size of SIZES) await benchSize(size);
}
