import { type Kysely, sql } from 'kysely';
import { PERMISSION_NAME_SEPARATOR, ROLE_CSV_COLUMNS, type RoleCsvColumn } from '../../contract/role-csv.ts';
import { type CsvCellSql, csvLineSql, emptyIfNull, isoInstantSql, writtenCell } from '../db/csv-sql.ts';
import type { Database } from '../db/schema.ts';
import { csvLine } from '../http/csv-stream.ts';
import type { Principal } from '../identity/principal.ts';
import { accountNameOf, holdersCount } from './repository.ts';

/**
 * The roles list as CSV, written by the platform's CSV writer: the header here, each role's line by
 * the database through the writer's SQL form (server/db/csv-sql.ts, decision 027).
 */

export const ROLE_CSV_HEADER = csvLine(ROLE_CSV_COLUMNS);

/** The role's permission names in their stored order, in one cell. */
const permissionNames = sql<string>`(
  select coalesce(string_agg(p.name, ${sql.lit(PERMISSION_NAME_SEPARATOR)} order by p.position), '')
  from jsonb_array_elements_text(${sql.ref('roles.permissions')}) with ordinality as p(name, position)
)`;

/** One role as a CSV line, its holders counted among the users `principal` reaches. */
export function roleCsvLine(db: Kysely<Database>, principal: Principal) {
  const cells: Record<RoleCsvColumn, CsvCellSql> = {
    name: sql.ref('roles.name'),
    application: sql.ref('roles.app_code'),
    type: writtenCell(
      sql`case when ${sql.ref('roles.account_id')} is null then 'built_in' else 'custom' end`,
    ),
    account_id: emptyIfNull(sql.ref('roles.account_id')),
    account_name: emptyIfNull(accountNameOf),
    status: writtenCell(sql`case when ${sql.ref('roles.archived')} then 'archived' else 'active' end`),
    description: sql.ref('roles.description'),
    permissions: permissionNames,
    users: writtenCell(sql`${holdersCount(db, principal)}::text`),
    created_at: writtenCell(isoInstantSql(sql.ref('roles.created_at'))),
  };
  return csvLineSql(ROLE_CSV_COLUMNS.map((column) => cells[column]));
}
