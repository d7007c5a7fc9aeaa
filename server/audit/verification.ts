import type { Kysely } from 'kysely';
import type { AuditEvent, AuditVerification } from '../../contract/schemas/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { checkpointKeys, newestCheckpoint } from './checkpoints.ts';
import { auditEventHash, checkpointSignatureHolds } from './event-hash.ts';
import { verifyAuditChain } from './verify.ts';

/**
 * GET audit-log/{id}/verify: the event's own hash, the chain from the first event through it, and
 * the newest checkpoint. When that checkpoint is later than the event the walk goes on to it, so a
 * truncated or rewritten tail shows even when verifying an older event: its signature must hold
 * under a registered key and its head must still be the event stored at its seq.
 */
export async function verifyAuditEvent(db: Kysely<Database>, event: AuditEvent): Promise<AuditVerification> {
  const eventOk = auditEventHash(event) === event.hash;
  const checkpoint = await newestCheckpoint(db);
  const chain = await verifyAuditChain(db, { throughSeq: Math.max(event.seq, checkpoint?.seq ?? 0) });
  let brokenAt: AuditVerification['broken_at'] = chain.ok
    ? undefined
    : { seq: chain.firstBadSeq, id: chain.firstBadId, reason: chain.reason };
  let checkpointOk: boolean | null = null;
  if (checkpoint !== undefined) {
    const key = (await checkpointKeys(db)).find((candidate) => candidate.key_id === checkpoint.key_id);
    const anchor = await db
      .selectFrom('audit_events')
      .select(['id', 'hash'])
      .where('seq', '=', checkpoint.seq)
      .executeTakeFirst();
    const headHolds = anchor?.hash === checkpoint.head_hash;
    checkpointOk = headHolds && key !== undefined && checkpointSignatureHolds(checkpoint, key.public_key_pem);
    if (!headHolds) brokenAt ??= { seq: checkpoint.seq, id: anchor?.id ?? null, reason: 'missing' };
  }
  if (!eventOk) brokenAt ??= { seq: event.seq, id: event.id, reason: 'altered' };
  return {
    intact: eventOk && chain.ok && checkpointOk !== false,
    event_ok: eventOk,
    chain_ok: chain.ok,
    checkpoint_ok: checkpointOk,
    checked_events: chain.events,
    ...(brokenAt ? { broken_at: brokenAt } : {}),
    ...(checkpoint ? { checkpoint } : {}),
  };
}
