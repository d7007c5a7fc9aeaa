import { sql } from 'kysely';
import { TENANT_CSV_COLUMNS, type TenantCsvColumn } from '../../contract/tenant-csv.ts';
import { csvLineSql, writtenCell } from '../db/csv-sql.ts';
import { csvLine } from '../http/csv-stream.ts';

/**
 * The accounts list as CSV, written by the platform's CSV writer: the header here, each account's
 * line by PostgreSQL through the writer's SQL form (server/db/csv-sql.ts, decision 027), from the
 * caller's accounts `a` joined to their partner `p`.
 */

export const TENANT_CSV_HEADER = csvLine(TENANT_CSV_COLUMNS);

const orEmpty = (column: string) => sql<string>`coalesce(${sql.ref(column)}, '')`;

/** One account's cells; the type holds them to the contract's columns, none missing and none extra. */
const TENANT_CSV_CELLS: Record<TenantCsvColumn, Parameters<typeof csvLineSql>[0][number]> = {
  name: sql.ref('a.name'),
  status: writtenCell(sql`case when ${sql.ref('a.active')} then 'active' else 'inactive' end`),
  friendly_identifier: sql.ref('a.friendly_identifier'),
  // `YYYY-MM-DD`, as the driver reads a date (server/db/connection.ts keeps its text).
  start_date: writtenCell(sql`${sql.ref('a.service_from')}::text`),
  end_date: writtenCell(sql`coalesce(${sql.ref('a.service_to')}::text, '')`),
  type: sql.ref('a.type'),
  partner_account_name: orEmpty('p.name'),
  federation_status: orEmpty('a.federation_status'),
  federated_account_id: orEmpty('a.federated_account_id'),
};

/** One account as a CSV line, its cells in the header's order; absent values are empty cells. */
export const tenantCsvLine = csvLineSql(TENANT_CSV_COLUMNS.map((column) => TENANT_CSV_CELLS[column]));
