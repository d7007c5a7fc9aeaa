import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { auditEventContent, chainHash, GENESIS_HASH } from '../server/audit/event-hash.ts';
import { recordAuditEvent } from '../server/audit/record.ts';
import { verifyAuditChain } from '../server/audit/verify.ts';
import { type OpenDatabase, openDatabase } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrator.ts';
import { benchPostgres } from './tenants.ts';

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 100_000);
const INSERT_BATCH = 1_000;
const WRITERS = 8;
const APPENDS_PER_WRITER = 250;

/** An account edit as the trail stores it: who, what, and the changed fields before and after. */
function eventAt(index: number, previous: string): { content: string; prev_hash: string; hash: string } {
  const content = auditEventContent({
    id: randomUUID(),
    occurred_at: new Date(Date.UTC(2026, 0, 1) + index * 1_000),
    action: 'UPDATE',
    status: 'success',
    resource_type: 'ACCOUNT',
    resource_id: randomUUID(),
    account_id: randomUUID(),
    actor_id: randomUUID(),
    actor_name: `administrator-${index % 50}`,
    ip_address: '192.0.2.10',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0',
    details: {
      changes: { name: { from: `Acme ${index}`, to: `Acme ${index + 1}` }, locale: { withheld: true } },
    },
  });
  return { content, prev_hash: previous, hash: chainHash(previous, content) };
}

/**
 * Stores a chain of `EVENTS` events in batches and times raw SHA-256 over each batch's hashed bytes
 * (previous hash, line feed, content) as it goes, so the baseline covers the same bytes without
 * holding them all at once.
 */
async function seedChain(
  db: OpenDatabase['db'],
): Promise<{ head: string; baselineMs: number; bytes: number }> {
  let previous = GENESIS_HASH;
  let baselineMs = 0;
  let bytes = 0;
  for (let start = 0; start < EVENTS; start += INSERT_BATCH) {
    const rows = [];
    for (let index = start; index < Math.min(EVENTS, start + INSERT_BATCH); index += 1) {
      const event = eventAt(index, previous);
      previous = event.hash;
      rows.push(event);
    }
    const texts = rows.map((row) => `${row.prev_hash}\n${row.content}`);
    const hashStart = performance.now();
    for (const text of texts) createHash('sha256').update(text).digest('hex');
    baselineMs += performance.now() - hashStart;
    bytes += texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    await db.insertInto('audit_events').values(rows).execute();
  }
  return { head: previous, baselineMs, bytes };
}

/** Peak resident memory and heap of this process while `work` runs, above where they started. */
async function withMemoryPeaks<T>(
  work: () => Promise<T>,
): Promise<{ result: T; rssMiB: number; heapMiB: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  try {
    const result = await work();
    sample();
    const mib = (value: number) => value / 1024 / 1024;
    return { result, rssMiB: mib(rss - before.rss), heapMiB: mib(heap - before.heapUsed) };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * `WRITERS` concurrent writers each append `APPENDS_PER_WRITER` events, one transaction per event as
 * a change would (chain lock, head read, insert), beside the same number of single-row inserts of
 * the same content into a table without the chain, at the same concurrency.
 */
async function benchAppends(db: OpenDatabase['db']): Promise<{ chained: number; plain: number }> {
  await sql`create table bench_plain_events (seq bigint generated always as identity, content text not null)`.execute(
    db,
  );
  const content = eventAt(0, GENESIS_HASH).content;
  const timed = async (append: () => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        for (let count = 0; count < APPENDS_PER_WRITER; count += 1) await append();
      }),
    );
    return (WRITERS * APPENDS_PER_WRITER) / ((performance.now() - start) / 1000);
  };
  const plain = await timed(() =>
    db
      .transaction()
      .execute((trx) => sql`insert into bench_plain_events (content) values (${content})`.execute(trx)),
  );
  const chained = await timed(() =>
    recordAuditEvent(db, {
      action: 'UPDATE',
      status: 'success',
      resourceType: 'ACCOUNT',
      resourceId: randomUUID(),
      actorName: 'bench',
      details: { changes: { name: { from: 'Acme', to: 'Acme 2' } } },
    }),
  );
  await sql`drop table bench_plain_events`.execute(db);
  return { chained, plain };
}

async function benchOne(label: string, database: OpenDatabase): Promise<void> {
  await migrateToLatest(database.db);
  const seeded = await seedChain(database.db);
  const walk = await withMemoryPeaks(() => verifyAuditChain(database.db));
  const check = walk.result;
  if (!check.ok || check.events !== EVENTS || check.head !== seeded.head) {
    throw new Error(`The seeded chain did not verify: ${JSON.stringify(check)}`);
  }
  const verifyStart = performance.now();
  await verifyAuditChain(database.db);
  const verifyMs = performance.now() - verifyStart;
  const appends = await benchAppends(database.db);

  const perSecond = (ms: number) => (EVENTS / (ms / 1000)).toFixed(0).padStart(9);
  console.info(
    `\n${label}: audit chain of ${EVENTS.toLocaleString('en')} events (${(seeded.bytes / 1024 / 1024).toFixed(1)} MiB hashed)`,
  );
  console.info(`  raw SHA-256 over the same bytes   ${perSecond(seeded.baselineMs)} events/s`);
  console.info(
    `  verify the whole chain            ${perSecond(verifyMs)} events/s   ${(seeded.baselineMs / verifyMs).toFixed(2)} × raw SHA-256 (goal ≥ 0.50)`,
  );
  console.info(
    `  this process during the walk      heap +${walk.heapMiB.toFixed(1)} MiB, resident +${walk.rssMiB.toFixed(1)} MiB`,
  );
  console.info(
    `  appends, ${WRITERS} concurrent writers   ${appends.chained.toFixed(0).padStart(9)} events/s   ` +
      `${(appends.chained / appends.plain).toFixed(2)} × plain inserts without the chain (${appends.plain.toFixed(0)}/s)`,
  );
}

/**
 * `npm run bench audit`: how fast the whole audit chain is verified (the database hashes each event's
 * stored content and checks each link, decision 023) beside raw SHA-256 over the same bytes in the
 * same run, with the goal of at least half its throughput; this process's memory during the walk,
 * which must not grow with the chain (BENCH_AUDIT_EVENTS, 100,000 by default; 1,000,000 for the
 * issue's figure); and events appended per second by concurrent writers beside plain inserts. On the
 * embedded database and, when one is reachable, on PostgreSQL. Printed, never asserted.
 */
export async function benchAuditChain(): Promise<void> {
  const embedded = await openDatabase({ inMemory: true });
  try {
    await benchOne('Embedded database (PGlite)', embedded);
  } finally {
    await embedded.close();
  }
  const postgres = await benchPostgres();
  if ('skipped' in postgres) {
    console.info(`\nPostgreSQL skipped: ${postgres.skipped}`);
    return;
  }
  try {
    const database = await openDatabase({ databaseUrl: postgres.url });
    try {
      await benchOne('PostgreSQL', database);
    } finally {
      await database.close();
    }
  } finally {
    await postgres.drop();
  }
}
