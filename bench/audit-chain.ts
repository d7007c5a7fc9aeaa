import { createHash, randomUUID } from 'node:crypto';
import {
  auditEventHash,
  canonicalJson,
  GENESIS_HASH,
  type HashedAuditFields,
} from '../server/audit/event-hash.ts';
import { verifyAuditChain } from '../server/audit/verify.ts';
import { openDatabase } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrator.ts';

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 100_000);
const INSERT_BATCH = 1_000;

/** An account edit as the trail holds it: who, what, and the changed fields before and after. */
function eventAt(index: number, previous: string): HashedAuditFields & { hash: string } {
  const fields: HashedAuditFields = {
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
    prev_hash: previous,
  };
  return { ...fields, hash: auditEventHash(fields) };
}

/** What the chain's hash reads of an event: the previous hash, a line feed and the canonical content. */
function hashedBytes(event: HashedAuditFields): string {
  const { prev_hash, ...rest } = event;
  const content = { ...rest, occurred_at: (event.occurred_at as Date).toISOString() };
  return `${prev_hash}\n${canonicalJson(content)}`;
}

/**
 * `npm run bench audit`: how fast the whole audit chain is verified from the database (read in keyset
 * batches, every hash recomputed from the canonical JSON), beside raw SHA-256 over the same bytes in
 * the same run; the goal is at least half its throughput. The heap's peak during the walk shows it
 * streams: it stays flat however long the chain (BENCH_AUDIT_EVENTS, 100,000 by default; 1,000,000
 * for the figure). Printed, never asserted.
 */
export async function benchAuditChain(): Promise<void> {
  const database = await openDatabase({ inMemory: true });
  try {
    await migrateToLatest(database.db);
    let previous = GENESIS_HASH;
    const bytes: string[] = [];
    for (let start = 0; start < EVENTS; start += INSERT_BATCH) {
      const rows = [];
      for (let index = start; index < Math.min(EVENTS, start + INSERT_BATCH); index += 1) {
        const event = eventAt(index, previous);
        previous = event.hash;
        bytes.push(hashedBytes(event));
        rows.push({ ...event, details: JSON.stringify(event.details) });
      }
      await database.db.insertInto('audit_events').values(rows).execute();
    }

    const baselineStart = performance.now();
    for (const text of bytes) createHash('sha256').update(text).digest('hex');
    const baselineMs = performance.now() - baselineStart;
    const totalBytes = bytes.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    bytes.length = 0;

    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 20);
    const verifyStart = performance.now();
    const check = await verifyAuditChain(database.db);
    const verifyMs = performance.now() - verifyStart;
    clearInterval(sampler);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    if (!check.ok || check.events !== EVENTS || check.head !== previous) {
      throw new Error(`The seeded chain did not verify: ${JSON.stringify(check)}`);
    }

    const perSecond = (ms: number) => (EVENTS / (ms / 1000)).toFixed(0).padStart(9);
    console.info(
      `\nAudit chain of ${EVENTS.toLocaleString('en')} events (${(totalBytes / 1024 / 1024).toFixed(1)} MiB hashed)`,
    );
    console.info(`  raw SHA-256 over the same bytes   ${perSecond(baselineMs)} events/s`);
    console.info(
      `  verify from the database          ${perSecond(verifyMs)} events/s   ${(baselineMs / verifyMs).toFixed(2)} × raw SHA-256 (goal ≥ 0.50)`,
    );
    console.info(
      `  heap during the walk              ${((heapPeak - heapBefore) / 1024 / 1024).toFixed(1)} MiB above its start`,
    );
  } finally {
    await database.close();
  }
}
