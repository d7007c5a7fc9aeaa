import { type Expression, type RawBuilder, sql } from 'kysely';
import { ROLE_NAME_SEPARATOR, USER_CSV_COLUMNS, type UserCsvColumn } from '../../contract/user-csv.ts';
import { type CsvCellSql, csvLineSql, emptyIfNull, isoInstantSql, writtenCell } from '../db/csv-sql.ts';
import { csvLine } from '../http/csv-stream.ts';
import { statusOf } from './list.ts';

/**
 * The users list as CSV, written by the platform's CSV writer: the header here, each user's line by
 * the database through the writer's SQL form (server/db/csv-sql.ts, decision 027), from the users
 * `u` joined to their primary account `a`.
 */

export const USER_CSV_HEADER = csvLine(USER_CSV_COLUMNS);

/** A user's roles that are not archived, by name in the lists' order (`rolesOf`), in one cell. */
export function roleNamesOf(userId: Expression<string>): RawBuilder<string> {
  return sql<string>`(
    select coalesce(string_agg(r.name, ${sql.lit(ROLE_NAME_SEPARATOR)} order by lower(r.name), r.id), '')
    from user_roles ur join roles r on r.id = ur.role_id and not r.archived
    where ur.user_id = ${userId}
  )`;
}

/** One user's cells; the type holds them to the contract's columns, none missing and none extra. */
const USER_CSV_CELLS: Record<UserCsvColumn, CsvCellSql> = {
  user_name: sql.ref('u.user_name'),
  first_name: sql.ref('u.first_name'),
  last_name: sql.ref('u.last_name'),
  email: sql.ref('u.email'),
  access_scope: sql.ref('u.access_scope'),
  primary_account: sql.ref('a.name'),
  status: writtenCell(statusOf),
  email_verified: writtenCell(
    sql`case when ${sql.ref('u.email_verified_at')} is null then 'false' else 'true' end`,
  ),
  roles: roleNamesOf(sql.ref('u.id')),
  last_sign_in_at: writtenCell(emptyIfNull(isoInstantSql(sql.ref('u.last_sign_in_at')))),
  created_at: writtenCell(isoInstantSql(sql.ref('u.created_at'))),
};

/** One user as a CSV line, its cells in the header's order; absent values are empty cells. */
export const userCsvLine = csvLineSql(USER_CSV_COLUMNS.map((column) => USER_CSV_CELLS[column]));
