import type { Kysely } from 'kysely';
import type { CertificateFilters } from '../../contract/schemas/certificates.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { CertificateSortColumn } from '../../contract/sort-columns.ts';
import { exportLines } from '../db/export-lines.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { certificateCsvLine } from './csv.ts';
import { filteredCertificates, sortKeys } from './repository.ts';

/**
 * The certificates export (GET certificate/export?format=csv): the line of every certificate the
 * list would show at `now`, in its order, written by the database (`exportLines`, decision 027).
 */
export function certificateCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: CertificateFilters,
  sort: SortOrder<CertificateSortColumn>,
  now: Date,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const rows = () =>
    filteredCertificates(db, principal, filters, now).select(certificateCsvLine(now).as('line'));
  return exportLines(db, rows, sortKeys(sort.column, now), sort.direction);
}
