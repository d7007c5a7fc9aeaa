import { sql } from 'kysely';
import { CERTIFICATE_CSV_COLUMNS, type CertificateCsvColumn } from '../../contract/certificate-csv.ts';
import { type CsvCellSql, csvLineSql, emptyIfNull, isoInstantSql, writtenCell } from '../db/csv-sql.ts';
import { csvLine } from '../http/csv-stream.ts';
import { statusOf } from './repository.ts';

/**
 * The certificates list as CSV, written by the platform's CSV writer: the header here, each
 * certificate's line by the database through the writer's SQL form (server/db/csv-sql.ts, decision
 * 027), from `certificates` left-joined to their `accounts`.
 */

export const CERTIFICATE_CSV_HEADER = csvLine(CERTIFICATE_CSV_COLUMNS);

/** One certificate as a CSV line at `now` (its status), its cells in the header's order. */
export function certificateCsvLine(now: Date) {
  const cells: Record<CertificateCsvColumn, CsvCellSql> = {
    serial_number: sql.ref('certificates.serial_number'),
    common_name: sql.ref('certificates.common_name'),
    subject: sql.ref('certificates.subject'),
    // Empty when the certificate has no account or its account is gone.
    account: emptyIfNull(sql.ref('accounts.name')),
    profile: emptyIfNull(sql.ref('certificates.profile_name')),
    source: sql.ref('certificates.source'),
    key_algorithm: sql.ref('certificates.key_algorithm'),
    status: writtenCell(statusOf(now)),
    not_before: writtenCell(isoInstantSql(sql.ref('certificates.not_before'))),
    not_after: writtenCell(isoInstantSql(sql.ref('certificates.not_after'))),
    revoked_at: writtenCell(emptyIfNull(isoInstantSql(sql.ref('certificates.revoked_at')))),
    revocation_reason: emptyIfNull(sql.ref('certificates.revocation_reason')),
    issued_at: writtenCell(isoInstantSql(sql.ref('certificates.created_at'))),
  };
  return csvLineSql(CERTIFICATE_CSV_COLUMNS.map((column) => cells[column]));
}
