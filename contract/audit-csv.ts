/**
 * The columns of the audit log's CSV export (`GET audit-log/export?format=csv`), in file order: the
 * header row names them as written here. `details` is the event's details as JSON; `hash` and
 * `prev_hash` let a reader match a row to the JSON Lines export, which carries the proof.
 */
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'id',
  'occurred_at',
  'action',
  'status',
  'resource_type',
  'resource_id',
  'account_id',
  'account_name',
  'actor_id',
  'actor_name',
  'ip_address',
  'user_agent',
  'details',
  'prev_hash',
  'hash',
] as const;
export type AuditCsvColumn = (typeof AUDIT_CSV_COLUMNS)[number];

/** One event of the export, cell by column. */
export type AuditCsvRecord = Readonly<Record<AuditCsvColumn, string>>;
