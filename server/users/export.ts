import type { Kysely } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { UserSortColumn } from '../../contract/sort-columns.ts';
import { exportLines } from '../db/export-lines.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { userCsvLine } from './csv.ts';
import { filteredUsers, sortKeys, type UserFilters, withPrimaryAccount } from './list.ts';

/**
 * The users export (GET user/export): the line of every user the list would show, in its order,
 * written by the database (`exportLines`, decision 027).
 */
export function userCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: UserFilters,
  sort: SortOrder<UserSortColumn>,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const rows = () =>
    withPrimaryAccount(db, filteredUsers(db, principal, filters).selectAll('u')).select(
      userCsvLine.as('line'),
    );
  return exportLines(db, rows, sortKeys(sort.column), sort.direction);
}
