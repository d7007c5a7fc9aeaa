import { sql } from 'kysely';
import { TENANT_CSV_COLUMNS, type TenantCsvColumn } from '../../contract/tenant-csv.ts';
import { type CsvCellSql, csvLineSql, emptyIfNull, writtenCell } from '../db/csv-sql.ts';
import { csvLine } from '../http/csv-stream.ts';

/**
 * The accounts list as CSV, written by the platform's CSV writer: the header here, each account's
 * line by PostgreSQL through the writer's SQL form (server/db/csv-sql.ts, decision 027), from the
 * caller's accounts `a` joined to their partner `p`.
 */

export const TENANT_CSV_HEADER = csvLine(TENANT_CSV_COLUMNS);

/** One account's cells; the type holds them to the contract's columns, none missing and none extra. */
const TENANT_CSV_CELLS: Record<TenantCsvColumn, CsvCellSql> = {
  name: sql.ref('a.name'),
  status: writtenCell(sql`case when ${sql.ref('a.active')} then 'active' else 'inactive' end`),
  friendly_identifier: sql.ref('a.friendly_identifier'),
  // `YYYY-MM-DD`, as the driver reads a date (server/db/connection.ts keeps its text).
  start_date: writtenCell(sql`${sql.ref('a.service_from')}::text`),
  end_date: writtenCell(emptyIfNull(sql<string | null>`${sql.ref('a.service_to')}::text`)),
  type: sql.ref('a.type'),
  partner_account_name: emptyIfNull(sql.ref('p.name')),
  federation_status: emptyIfNull(sql.ref('a.federation_status')),
  federated_account_id: emptyIfNull(sql.ref('a.federated_account_id')),
};

/** One account as a CSV line, its cells in the header's order; absent values are empty cells. */
export const tenantCsvLine = csvLineSql(TENANT_CSV_COLUMNS.map((column) => TENANT_CSV_CELLS[column]));
