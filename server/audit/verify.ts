import { type Kysely, sql } from 'kysely';
import { keysetBatches } from '../db/keyset.ts';
import type { Database } from '../db/schema.ts';
import { auditEventHash, GENESIS_HASH } from './event-hash.ts';

/** Events per query while walking the chain: the most the walk holds in memory at once. */
export const CHAIN_BATCH_SIZE = 1000;

export type AuditChainCheck =
  | { ok: true; events: number; head: string }
  | { ok: false; events: number; firstBadSeq: number; firstBadId: string; reason: 'altered' | 'unlinked' };

/** Where a walk starts and stops: after an event already trusted (a checkpoint's head), through a seq. */
export interface ChainSpan {
  after?: { seq: number; hash: string };
  throughSeq?: number;
}

/**
 * Walks the trail in order from the first event, or from the one after `span.after`, through
 * `span.throughSeq` when given, and recomputes
 * every hash: an edited row fails its own hash, a removed or reordered row breaks the link of the
 * next one. Rows are read in keyset batches of `CHAIN_BATCH_SIZE`, so memory stays flat whatever the
 * length of the chain. Truncating the newest rows is only visible against a signed checkpoint
 * (`checkpoints.ts`). `events` counts the events checked.
 */
export async function verifyAuditChain(db: Kysely<Database>, span: ChainSpan = {}): Promise<AuditChainCheck> {
  const { after, throughSeq } = span;
  const seq = sql.ref('audit_events.seq');
  const batches = keysetBatches(
    () => {
      let rows = db.selectFrom('audit_events').selectAll('audit_events');
      if (after !== undefined) rows = rows.where('audit_events.seq', '>', after.seq);
      if (throughSeq !== undefined) rows = rows.where('audit_events.seq', '<=', throughSeq);
      return rows;
    },
    [seq],
    'asc',
    CHAIN_BATCH_SIZE,
  );
  let previous = after?.hash ?? GENESIS_HASH;
  let events = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      events += 1;
      if (row.prev_hash !== previous) {
        return { ok: false, events, firstBadSeq: row.seq, firstBadId: row.id, reason: 'unlinked' };
      }
      if (auditEventHash(row) !== row.hash) {
        return { ok: false, events, firstBadSeq: row.seq, firstBadId: row.id, reason: 'altered' };
      }
      previous = row.hash;
    }
  }
  return { ok: true, events, head: previous };
}
