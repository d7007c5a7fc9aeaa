import { CERTIFICATE_CSV_COLUMNS, type CertificateCsvRecord } from '../../contract/certificate-csv.ts';
import type { CertificateSummary } from '../../contract/schemas/certificates.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The certificates list as CSV, written by the one CSV writer of the platform (`http/csv-stream.ts`). */

export const CERTIFICATE_CSV_HEADER = csvLine(CERTIFICATE_CSV_COLUMNS);

function certificateCsvRecord(certificate: CertificateSummary): CertificateCsvRecord {
  return {
    serial_number: certificate.serial_number,
    common_name: certificate.common_name,
    subject: certificate.subject,
    account: certificate.account?.name ?? '',
    profile: certificate.profile_name ?? '',
    source: certificate.source,
    key_algorithm: certificate.key_algorithm,
    status: certificate.status,
    not_before: certificate.not_before,
    not_after: certificate.not_after,
    revoked_at: certificate.revoked_at ?? '',
    revocation_reason: certificate.revocation_reason ?? '',
    issued_at: certificate.created_at,
  };
}

/** One certificate as a CSV line, its cells in the header's order. */
export function certificateCsvLine(certificate: CertificateSummary): string {
  const record = certificateCsvRecord(certificate);
  return csvLine(CERTIFICATE_CSV_COLUMNS.map((column) => record[column]));
}
