import { AUDIT_CSV_COLUMNS, type AuditCsvRecord } from '../../contract/audit-csv.ts';
import type { AuditEvent, AuditExportProof } from '../../contract/schemas/audit-log.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The audit log's exports: CSV for reading, JSON Lines with the chain proof for checking (decision 023). */

export const AUDIT_CSV_HEADER = csvLine(AUDIT_CSV_COLUMNS);

/** One event as a CSV line, its cells in the header's order; cells a spreadsheet would run are defused. */
export function auditCsvLine(event: AuditEvent): string {
  const record: AuditCsvRecord = {
    seq: String(event.seq),
    id: event.id,
    occurred_at: event.occurred_at,
    action: event.action,
    status: event.status,
    resource_type: event.resource_type,
    resource_id: event.resource_id ?? '',
    account_id: event.account_id ?? '',
    account_name: event.account_name ?? '',
    actor_id: event.actor_id ?? '',
    actor_name: event.actor_name ?? '',
    ip_address: event.ip_address ?? '',
    user_agent: event.user_agent ?? '',
    details: JSON.stringify(event.details),
    prev_hash: event.prev_hash,
    hash: event.hash,
  };
  return csvLine(AUDIT_CSV_COLUMNS.map((column) => record[column]));
}

/** One event as a line of the JSON Lines export: the event as the API answers it. */
export function auditJsonLine(event: AuditEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/** The last line of the JSON Lines export (`auditExportProofSchema`). */
export function auditProofLine(proof: AuditExportProof['proof']): string {
  return `${JSON.stringify({ proof } satisfies AuditExportProof)}\n`;
}
