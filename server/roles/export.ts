import type { Kysely } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { RoleSortColumn } from '../../contract/sort-columns.ts';
import { exportLines } from '../db/export-lines.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { roleCsvLine } from './csv.ts';
import { filteredRoles, type RoleFilters, sortKeys } from './repository.ts';

/**
 * The roles export (GET role/export): the line of every role the list would show, in its order,
 * written by the database (`exportLines`, decision 027).
 */
export function roleCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: RoleFilters,
  sort: SortOrder<RoleSortColumn>,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const rows = () => filteredRoles(db, principal, filters).select(roleCsvLine(db, principal).as('line'));
  return exportLines(db, rows, sortKeys(db, principal, sort.column), sort.direction);
}
