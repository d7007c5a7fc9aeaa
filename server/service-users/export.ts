import type { Kysely } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { ServiceUserSortColumn } from '../../contract/sort-columns.ts';
import { utcDate } from '../dates.ts';
import { exportLines } from '../db/export-lines.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { serviceUserCsvLine } from './csv.ts';
import { filteredServiceUsers, type ServiceUserFilters, sortKeys } from './repository.ts';

/**
 * The service users export (GET service-user/export): the line of every service user the list would
 * show on `now`'s day, in its order, written by the database (`exportLines`, decision 027).
 */
export function serviceUserCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: ServiceUserFilters,
  sort: SortOrder<ServiceUserSortColumn>,
  now: Date,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const today = utcDate(now);
  const rows = () =>
    filteredServiceUsers(db, principal, filters, today).select(serviceUserCsvLine(today).as('line'));
  return exportLines(db, rows, sortKeys(sort.column, today), sort.direction);
}
