import { createHash, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { AuditAction, AuditResourceType, AuditStatus } from '../../contract/audit.ts';
import type { Database } from '../db/schema.ts';

export interface AuditEventInput {
  action: AuditAction;
  status: AuditStatus;
  resourceType: AuditResourceType;
  resourceId?: string | null;
  accountId?: string | null;
  actorId?: string | null;
  actorName?: string | null;
  ipAddress?: string | null;
  /** What changed, for people reading the trail. Never passwords, tokens, keys or licence texts. */
  details?: Record<string, unknown>;
  /** The request's clock (`deps.now()`); the wall clock when absent. */
  occurredAt?: Date;
}

export interface RecordedAuditEvent {
  id: string;
  hash: string;
}

/** The `prev_hash` of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Advisory lock that serialises audit writers of every server process on one database. */
const AUDIT_CHAIN_LOCK = 0x61756469;

/**
 * Keys whose values must never reach the trail; a hit is a programming error, so it throws. Such a
 * key may only say that its field changed, as an UPDATE's `{ withheld: true }`.
 */
const SECRET_KEY = /pass(word)?|secret|token|private|^body$|^key$/i;

function isWithheld(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as { withheld?: unknown }).withheld === true
  );
}

function assertNoSecrets(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      assertNoSecrets(item, `${path}[${index}]`);
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEY.test(key) && !isWithheld(item)) {
      throw new Error(`Audit details must not carry secrets (${path}.${key}).`);
    }
    assertNoSecrets(item, `${path}.${key}`);
  }
}

/** JSON with object keys sorted at every level, so equal content always hashes equally. */
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
  occurred_at: Date;
  action: string;
  status: string;
  resource_type: string;
  resource_id: string | null;
  account_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  ip_address: string | null;
  details: Record<string, unknown>;
  prev_hash: string;
}

/** SHA-256 over the previous event's hash and the canonical JSON of this event. */
export function auditEventHash(event: HashedAuditFields): string {
  // Fields are picked one by one: a stored row also carries `seq` and `hash`, which are not content.
  const content = {
    id: event.id,
    occurred_at: event.occurred_at.toISOString(),
    action: event.action,
    status: event.status,
    resource_type: event.resource_type,
    resource_id: event.resource_id,
    account_id: event.account_id,
    actor_id: event.actor_id,
    actor_name: event.actor_name,
    ip_address: event.ip_address,
    details: event.details,
  };
  return createHash('sha256')
    .update(event.prev_hash)
    .update('\n')
    .update(canonicalJson(content))
    .digest('hex');
}

async function appendToChain(trx: Kysely<Database>, event: AuditEventInput): Promise<RecordedAuditEvent> {
  await sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`.execute(trx);
  const previous = await trx
    .selectFrom('audit_events')
    .select('hash')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const fields: HashedAuditFields = {
    id: randomUUID(),
    occurred_at: event.occurredAt ?? new Date(),
    action: event.action,
    status: event.status,
    resource_type: event.resourceType,
    resource_id: event.resourceId ?? null,
    account_id: event.accountId ?? null,
    actor_id: event.actorId ?? null,
    actor_name: event.actorName ?? null,
    ip_address: event.ipAddress ?? null,
    details: event.details ?? {},
    prev_hash: previous?.hash ?? GENESIS_HASH,
  };
  const hash = auditEventHash(fields);
  await trx
    .insertInto('audit_events')
    .values({ ...fields, details: JSON.stringify(fields.details), hash })
    .execute();
  return { id: fields.id, hash };
}

/**
 * Appends an event to the hash-chained trail. Pass the transaction of the change being audited so
 * the event commits or rolls back with it; the chain lock is then held until that commit, which
 * keeps the chain linear across processes (a writer sees the previous writer's committed row).
 */
export async function recordAuditEvent(
  db: Kysely<Database>,
  event: AuditEventInput,
): Promise<RecordedAuditEvent> {
  assertNoSecrets(event.details ?? {}, 'details');
  if (db.isTransaction) return appendToChain(db, event);
  return db.transaction().execute((trx) => appendToChain(trx, event));
}
