import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { auditEventHash, GENESIS_HASH } from './record.ts';

export type AuditChainCheck =
  | { ok: true; events: number; head: string }
  | { ok: false; events: number; firstBadSeq: number; reason: 'altered' | 'unlinked' };

/**
 * Walks the whole trail in order and recomputes every hash: an edited row fails its own hash, a
 * removed or reordered row breaks the link of the next one. Truncating the newest rows is only
 * visible against a head hash kept outside the database.
 */
export async function verifyAuditChain(db: Kysely<Database>): Promise<AuditChainCheck> {
  const rows = await db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
  let previous = GENESIS_HASH;
  for (const row of rows) {
    if (row.prev_hash !== previous) {
      return { ok: false, events: rows.length, firstBadSeq: row.seq, reason: 'unlinked' };
    }
    if (auditEventHash(row) !== row.hash) {
      return { ok: false, events: rows.length, firstBadSeq: row.seq, reason: 'altered' };
    }
    previous = row.hash;
  }
  return { ok: true, events: rows.length, head: previous };
}
