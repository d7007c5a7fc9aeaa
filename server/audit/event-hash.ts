import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';

/**
 * The hashing and checkpoint rules of the audit chain (decision 023), without the database: the
 * server that writes and verifies the chain and `npm run audit:verify`, which checks an export
 * offline, share this one implementation.
 */

/** The `prev_hash` of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with object keys sorted at every level (by UTF-16 code units), no white space, strings and
 * numbers as `JSON.stringify` writes them, and `undefined` members left out: RFC 8785 (JCS) for the
 * values the trail holds (strings, integers, booleans, null, arrays, objects), so equal content always
 * hashes equally.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fields of a stored event that its hash covers. */
export interface HashedAuditFields {
  id: string;
  /** A Date from the database; the ISO text (UTC, milliseconds) in an export. */
  occurred_at: Date | string;
  action: string;
  status: string;
  resource_type: string;
  resource_id: string | null;
  account_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  ip_address: string | null;
  /** Covered only when recorded, so the events from before it was kept keep their hashes. */
  user_agent?: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
}

/**
 * The canonical JSON of an event's content: the text the chain hashes and the database stores
 * (`audit_events.content`), from which it derives every other column of the event.
 */
export function auditEventContent(event: Omit<HashedAuditFields, 'prev_hash'>): string {
  // Fields are picked one by one: a stored row also carries `seq` and `hash`, which are not content.
  return canonicalJson({
    id: event.id,
    occurred_at: typeof event.occurred_at === 'string' ? event.occurred_at : event.occurred_at.toISOString(),
    action: event.action,
    status: event.status,
    resource_type: event.resource_type,
    resource_id: event.resource_id,
    account_id: event.account_id,
    actor_id: event.actor_id,
    actor_name: event.actor_name,
    ip_address: event.ip_address,
    user_agent: event.user_agent ?? undefined,
    details: event.details,
  });
}

/** SHA-256 (hex) over the previous event's hash, a line feed, and an event's canonical content. */
export function chainHash(prevHash: string, content: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
}

/** The hash of an event from its fields: `chainHash` over `auditEventContent`. */
export function auditEventHash(event: HashedAuditFields): string {
  return chainHash(event.prev_hash, auditEventContent(event));
}

/** A checkpoint as signed: the chain head at `seq`, when, and by which key. */
export interface CheckpointFields {
  seq: number;
  head_hash: string;
  /** ISO 8601, UTC, milliseconds. */
  signed_at: string;
  key_id: string;
}

/** The bytes a checkpoint's Ed25519 signature covers: a fixed label, a line feed, its canonical JSON. */
export function checkpointMessage(checkpoint: CheckpointFields): Buffer {
  const { seq, head_hash, signed_at, key_id } = checkpoint;
  return Buffer.from(`audit-checkpoint\n${canonicalJson({ head_hash, key_id, seq, signed_at })}`, 'utf8');
}

/** The id of a checkpoint key: SHA-256 (hex, first 16 bytes) of its SPKI DER. */
export function checkpointKeyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 32);
}

/** Whether `signature` (base64) is the key's Ed25519 signature of the checkpoint. */
export function checkpointSignatureHolds(
  checkpoint: CheckpointFields & { signature: string },
  publicKeyPem: string,
): boolean {
  try {
    const key = createPublicKey(publicKeyPem);
    if (key.asymmetricKeyType !== 'ed25519' || checkpointKeyId(key) !== checkpoint.key_id) return false;
    return verify(null, checkpointMessage(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}
