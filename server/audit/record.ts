import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { AuditAction, AuditResourceType, AuditStatus } from '../../contract/audit.ts';
import type { Database } from '../db/schema.ts';
import { auditEventContent, chainHash, GENESIS_HASH } from './event-hash.ts';

export interface AuditEventInput {
  action: AuditAction;
  status: AuditStatus;
  resourceType: AuditResourceType;
  resourceId?: string | null;
  accountId?: string | null;
  actorId?: string | null;
  actorName?: string | null;
  ipAddress?: string | null;
  /** The client's User-Agent header, cut to `USER_AGENT_MAX_LENGTH`. */
  userAgent?: string | null;
  /** What changed, for people reading the trail. Never passwords, tokens, keys or licence texts. */
  details?: Record<string, unknown>;
  /** The request's clock (`deps.now()`); the wall clock when absent. */
  occurredAt?: Date;
}

export interface RecordedAuditEvent {
  id: string;
  hash: string;
}

/** The longest User-Agent the trail keeps; longer ones are cut, not refused. */
export const USER_AGENT_MAX_LENGTH = 512;

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

async function appendToChain(trx: Kysely<Database>, event: AuditEventInput): Promise<RecordedAuditEvent> {
  await sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`.execute(trx);
  const previous = await trx
    .selectFrom('audit_events')
    .select('hash')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const id = randomUUID();
  const prevHash = previous?.hash ?? GENESIS_HASH;
  const content = auditEventContent({
    id,
    occurred_at: event.occurredAt ?? new Date(),
    action: event.action,
    status: event.status,
    resource_type: event.resourceType,
    resource_id: event.resourceId ?? null,
    account_id: event.accountId ?? null,
    actor_id: event.actorId ?? null,
    actor_name: event.actorName ?? null,
    ip_address: event.ipAddress ?? null,
    user_agent: event.userAgent ? event.userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null,
    details: event.details ?? {},
  });
  const hash = chainHash(prevHash, content);
  // The database derives the event's other columns from `content` (decision 023).
  await trx.insertInto('audit_events').values({ content, prev_hash: prevHash, hash }).execute();
  return { id, hash };
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
