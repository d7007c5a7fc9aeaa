import * as v from 'valibot';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, AUDIT_STATUSES } from '../audit.ts';
import { AUDIT_LOG_SORT_COLUMNS } from '../sort-columns.ts';
import type { ValidationCode } from '../validation.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery } from './query.ts';

/**
 * The audit log (issue 16, decision 023): the hash-chained events, their verification, and the
 * signed checkpoints of the chain head an auditor keeps elsewhere.
 */

/** `YYYY-MM-DDTHH:mm[:ss[.fff]]` with `Z` or an offset; the date must exist (no 31 February). */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function isExistingDateTime(text: string): boolean {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An instant in a query: ISO 8601 with its offset, so the range means the same in every time zone. */
export const isoDateTimeQuery = v.pipe(
  v.string('invalidValue' satisfies ValidationCode),
  v.check(isExistingDateTime, 'invalidValue' satisfies ValidationCode),
);

/** The filters of the list and of its export (overview §3, audit event filters). */
export const auditLogFilterEntries = {
  /** Events at or after this instant. */
  from: v.optional(isoDateTimeQuery),
  /** Events at or before this instant. */
  to: v.optional(isoDateTimeQuery),
  action: v.optional(v.picklist(AUDIT_ACTIONS, 'invalidValue' satisfies ValidationCode)),
  status: v.optional(v.picklist(AUDIT_STATUSES, 'invalidValue' satisfies ValidationCode)),
  resource_type: v.optional(v.picklist(AUDIT_RESOURCE_TYPES, 'invalidValue' satisfies ValidationCode)),
  /** The actor's user id. */
  user: v.optional(resourceIdSchema),
  /** One account's events; out of the caller's reach it is answered 404. */
  account_id: v.optional(resourceIdSchema),
  /** `timestamp:desc` (newest first) unless given. */
  sort: sortQuery(AUDIT_LOG_SORT_COLUMNS),
};

function rangeInOrder(query: { from?: string; to?: string }): boolean {
  return query.from === undefined || query.to === undefined || Date.parse(query.from) <= Date.parse(query.to);
}

/** `to` before `from` is refused on `to`. */
function rangeCheck<TQuery extends { from?: string; to?: string }>() {
  return v.forward<TQuery, v.CheckIssue<TQuery>, ['to']>(
    v.check<TQuery, ValidationCode>(rangeInOrder, 'endDateBeforeStartDate'),
    ['to'] as never,
  );
}

/** GET audit-log: filters and paging (page size 20 unless `limit` says otherwise, P-11). */
export const auditLogListQueryObjectSchema = v.object({ ...pagingQueryEntries, ...auditLogFilterEntries });
export const auditLogListQuerySchema = v.pipe(auditLogListQueryObjectSchema, rangeCheck());
export type AuditLogListQuery = v.InferOutput<typeof auditLogListQuerySchema>;
export type AuditLogListQueryInput = v.InferInput<typeof auditLogListQuerySchema>;
/** The list's filters without paging, as the export takes them. */
export type AuditLogFilters = Omit<AuditLogListQuery, 'limit' | 'offset' | 'sort'>;

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** GET audit-log/export: the list's filters and the file format. */
export const auditLogExportQueryObjectSchema = v.object({
  ...auditLogFilterEntries,
  format: v.picklist(AUDIT_EXPORT_FORMATS, 'invalidValue' satisfies ValidationCode),
});
export const auditLogExportQuerySchema = v.pipe(auditLogExportQueryObjectSchema, rangeCheck());
export type AuditLogExportQuery = v.InferOutput<typeof auditLogExportQuerySchema>;

export const auditEventIdParamsSchema = v.object({ id: resourceIdSchema });

/** One field of an UPDATE: before and after, or only that it changed (`AuditFieldChange`). */
export const auditFieldChangeSchema = v.union([
  v.object({ withheld: v.literal(true) }),
  v.object({ from: v.unknown(), to: v.unknown() }),
]);

/** UPDATE's details (`AuditUpdateDetails`): the changed fields by dot path. */
export const auditUpdateDetailsSchema = v.object({
  changes: v.record(v.string(), auditFieldChangeSchema),
  api_key_id: v.optional(v.string()),
});

/**
 * One event as the API answers it. `seq` is its place in the chain; `hash` covers `prev_hash` and
 * the event's content (decision 023). `account_name` is the account's current name, read beside the
 * event (not part of the hashed content); null once the account is gone.
 */
export const auditEventSchema = v.object({
  id: v.string(),
  seq: v.number(),
  /** ISO 8601, UTC, milliseconds. */
  occurred_at: v.string(),
  action: v.picklist(AUDIT_ACTIONS),
  status: v.picklist(AUDIT_STATUSES),
  resource_type: v.picklist(AUDIT_RESOURCE_TYPES),
  resource_id: v.nullable(v.string()),
  account_id: v.nullable(v.string()),
  account_name: v.nullable(v.string()),
  actor_id: v.nullable(v.string()),
  actor_name: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
  /** The client's User-Agent when the event recorded one. */
  user_agent: v.nullable(v.string()),
  /** CREATE/DELETE: how the object is named; UPDATE: `auditUpdateDetailsSchema`. */
  details: v.record(v.string(), v.unknown()),
  prev_hash: v.string(),
  hash: v.string(),
});
export type AuditEvent = v.InferOutput<typeof auditEventSchema>;

export const auditEventListSchema = listSchema(auditEventSchema);
export type AuditEventList = v.InferOutput<typeof auditEventListSchema>;

/**
 * A signed checkpoint: the platform's Ed25519 signature over the chain head at `seq` (decision 023
 * gives the signed bytes). `signature` is base64; `key_id` names the public key that checks it.
 */
export const auditCheckpointSchema = v.object({
  seq: v.number(),
  head_hash: v.string(),
  /** ISO 8601, UTC, milliseconds. */
  signed_at: v.string(),
  key_id: v.string(),
  signature: v.string(),
});
export type AuditCheckpoint = v.InferOutput<typeof auditCheckpointSchema>;

/** A public key that checks checkpoints, as SPKI PEM. */
export const auditPublicKeySchema = v.object({
  key_id: v.string(),
  algorithm: v.literal('Ed25519'),
  public_key_pem: v.string(),
});
export type AuditPublicKey = v.InferOutput<typeof auditPublicKeySchema>;

/** GET audit-log/checkpoints: newest first, with the keys that check them, to keep offline. */
export const auditCheckpointListSchema = v.object({
  ...listSchema(auditCheckpointSchema).entries,
  public_keys: v.array(auditPublicKeySchema),
});
export type AuditCheckpointList = v.InferOutput<typeof auditCheckpointListSchema>;

export const auditCheckpointListQuerySchema = v.object({ ...pagingQueryEntries });

/**
 * Where a chain breaks: `altered` an event whose content no longer gives its hash, `unlinked` one
 * whose `prev_hash` is not its predecessor's hash (a row removed or reordered before it), `missing`
 * the event a checkpoint signed is gone or differs (the tail truncated or rewritten); `id` is null
 * when no row is left at `seq`.
 */
export const AUDIT_BREAK_REASONS = ['altered', 'unlinked', 'missing'] as const;
export type AuditBreakReason = (typeof AUDIT_BREAK_REASONS)[number];

/**
 * GET audit-log/{id}/verify. `event_ok`: the event's own hash holds. `chain_ok`: every event from
 * the first through this one (and on to the newest checkpoint when it is later) holds and links.
 * `checkpoint_ok`: the newest checkpoint's signature holds and its head is on that chain; null when
 * there is no checkpoint yet. `intact` is all of them.
 */
export const auditVerificationSchema = v.object({
  intact: v.boolean(),
  event_ok: v.boolean(),
  chain_ok: v.boolean(),
  checkpoint_ok: v.nullable(v.boolean()),
  checked_events: v.number(),
  broken_at: v.optional(
    v.object({ seq: v.number(), id: v.nullable(v.string()), reason: v.picklist(AUDIT_BREAK_REASONS) }),
  ),
  checkpoint: v.optional(auditCheckpointSchema),
});
export type AuditVerification = v.InferOutput<typeof auditVerificationSchema>;

/**
 * The last line of the JSON Lines export (`format=jsonl`), after one line per event (each an
 * `auditEventSchema` in the chain's order): the newest checkpoint at or before the last event
 * exported, null when there is none, and the keys that check it. `filtered` says the export left
 * events out, so the links between its lines are not expected to hold.
 */
export const auditExportProofSchema = v.object({
  proof: v.object({
    checkpoint: v.nullable(auditCheckpointSchema),
    public_keys: v.array(auditPublicKeySchema),
    filtered: v.boolean(),
  }),
});
export type AuditExportProof = v.InferOutput<typeof auditExportProofSchema>;
