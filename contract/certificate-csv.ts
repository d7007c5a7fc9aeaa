/**
 * The columns of the certificates export (`GET certificate/export?format=csv`), in file order: the
 * header row names them as written here. The server's writer and the tests read this one list.
 */
export const CERTIFICATE_CSV_COLUMNS = [
  'serial_number',
  'common_name',
  'subject',
  'account',
  'profile',
  'source',
  'key_algorithm',
  'status',
  'not_before',
  'not_after',
  'revoked_at',
  'revocation_reason',
  'issued_at',
] as const;
export type CertificateCsvColumn = (typeof CERTIFICATE_CSV_COLUMNS)[number];

/** One certificate of the export, cell by column. */
export type CertificateCsvRecord = Readonly<Record<CertificateCsvColumn, string>>;
