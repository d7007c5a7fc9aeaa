import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, AUDIT_STATUSES } from '../../contract/audit.ts';
import type { AuditEvent, AuditLogFilters } from '../../contract/schemas/audit-log.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { AuditLogSortColumn } from '../../contract/sort-columns.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import { keysetBatches, type SortKeys } from '../db/keyset.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * The audit events a caller reaches (issue 16): the system scope every one, partner and account
 * scope those of the accounts they see (`account-reach.ts`). An event of no account (a failed sign-in
 * of an unknown name) or of an account since deleted is for the system scope only.
 */

export const DEFAULT_SORT: SortOrder<AuditLogSortColumn> = { column: 'timestamp', direction: 'desc' };

/** Time first, then the chain's order, which is unique and never null (keyset exports need that). */
const SORT_KEYS: Record<AuditLogSortColumn, SortKeys> = {
  timestamp: [sql.ref('audit_events.occurred_at'), sql.ref('audit_events.seq')],
};

function reachOf(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'audit_events' | 'accounts'>): Expression<SqlBool> => {
    if (principal.accessScope === 'system') return eb.lit(true);
    const seen = visibleTo(principal)(eb as unknown as ExpressionBuilder<Database, 'accounts'>);
    return eb.and([eb('accounts.id', 'is not', null), seen]);
  };
}

function reachableEvents(db: Kysely<Database>, principal: Principal) {
  return db
    .selectFrom('audit_events')
    .leftJoin('accounts', 'accounts.id', 'audit_events.account_id')
    .where(reachOf(principal));
}

function filteredEvents(db: Kysely<Database>, principal: Principal, filters: AuditLogFilters) {
  let query = reachableEvents(db, principal);
  if (filters.from !== undefined)
    query = query.where('audit_events.occurred_at', '>=', new Date(filters.from));
  if (filters.to !== undefined) query = query.where('audit_events.occurred_at', '<=', new Date(filters.to));
  if (filters.action !== undefined) query = query.where('audit_events.action', '=', filters.action);
  if (filters.status !== undefined) query = query.where('audit_events.status', '=', filters.status);
  if (filters.resource_type !== undefined) {
    query = query.where('audit_events.resource_type', '=', filters.resource_type);
  }
  if (filters.user !== undefined) query = query.where('audit_events.actor_id', '=', filters.user);
  if (filters.account_id !== undefined)
    query = query.where('audit_events.account_id', '=', filters.account_id);
  return query;
}

type Reachable = ReturnType<typeof reachableEvents>;

function selectEvent(query: Reachable) {
  return query.selectAll('audit_events').select('accounts.name as account_name');
}

type EventRow = Awaited<ReturnType<ReturnType<typeof selectEvent>['execute']>>[number];

/** A stored event as the API answers it; the hashed fields exactly as stored. */
export function toAuditEvent(row: EventRow): AuditEvent {
  return {
    id: row.id,
    seq: row.seq,
    occurred_at: new Date(row.occurred_at).toISOString(),
    action: oneOf(AUDIT_ACTIONS, row.action, 'audit action'),
    status: oneOf(AUDIT_STATUSES, row.status, 'audit status'),
    resource_type: oneOf(AUDIT_RESOURCE_TYPES, row.resource_type, 'audit resource type'),
    resource_id: row.resource_id,
    account_id: row.account_id,
    account_name: row.account_name,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    details: row.details,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/** One page of the events the caller reaches, and how many match in all. */
export async function listAuditEvents(
  db: Kysely<Database>,
  principal: Principal,
  filters: AuditLogFilters,
  page: PageRequest & { sort: SortOrder<AuditLogSortColumn> },
): Promise<ListPageOf<AuditEvent>> {
  const { rows, ...total } = await listPage(
    {
      db,
      matching: filteredEvents(db, principal, filters),
      keys: SORT_KEYS[page.sort.column],
      // The events' order ends in `seq`; the cursor names an event by its id.
      idKey: sql.ref('audit_events.id'),
      direction: page.sort.direction,
      page,
    },
    (cut) => selectEvent(cut).execute(),
  );
  return { items: rows.map(toAuditEvent), ...total };
}

/**
 * Every matching event in `sort` order, or in the chain's order (`chain`, the JSON Lines export,
 * whose links a reader checks line by line), in batches.
 */
export async function* auditEventBatches(
  db: Kysely<Database>,
  principal: Principal,
  filters: AuditLogFilters,
  sort: SortOrder<AuditLogSortColumn> | 'chain',
  batchSize: number,
): AsyncGenerator<AuditEvent[], void, undefined> {
  const rows = () => selectEvent(filteredEvents(db, principal, filters));
  const [keys, direction] =
    sort === 'chain'
      ? [[sql.ref('audit_events.seq')], 'asc' as const]
      : [SORT_KEYS[sort.column], sort.direction];
  for await (const batch of keysetBatches(rows, keys, direction, batchSize)) {
    yield batch.map(toAuditEvent);
  }
}

/** The event `id` if `principal` reaches it. */
export async function findReachableAuditEvent(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
): Promise<AuditEvent | undefined> {
  const row = await selectEvent(reachableEvents(db, principal))
    .where('audit_events.id', '=', id)
    .executeTakeFirst();
  return row && toAuditEvent(row);
}

/** A page of the chain's signed checkpoints, the newest first, with how many there are. */
export async function listCheckpoints(db: Kysely<Database>, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_checkpoints')
      .selectAll()
      .orderBy('seq', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('audit_checkpoints')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
