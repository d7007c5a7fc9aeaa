import { sql } from 'kysely';
import { SERVICE_USER_CSV_COLUMNS, type ServiceUserCsvColumn } from '../../contract/service-user-csv.ts';
import { type CsvCellSql, csvLineSql, emptyIfNull, isoInstantSql, writtenCell } from '../db/csv-sql.ts';
import { csvLine } from '../http/csv-stream.ts';
import { roleNamesOf } from '../users/index.ts';
import { lastUsedOf, statusOf } from './repository.ts';

/**
 * The service users list as CSV, written by the platform's CSV writer: the header here, each service
 * user's line by the database through the writer's SQL form (server/db/csv-sql.ts, decision 027).
 */

export const SERVICE_USER_CSV_HEADER = csvLine(SERVICE_USER_CSV_COLUMNS);

/** One service user as a CSV line on `today` (its status), its cells in the header's order. */
export function serviceUserCsvLine(today: string) {
  const cells: Record<ServiceUserCsvColumn, CsvCellSql> = {
    name: sql.ref('users.user_name'),
    description: sql.ref('service_users.description'),
    email: sql.ref('users.email'),
    primary_account: sql.ref('accounts.name'),
    status: writtenCell(statusOf(today)),
    end_date: writtenCell(emptyIfNull(sql<string | null>`${sql.ref('service_users.end_date')}::text`)),
    roles: roleNamesOf(sql.ref('users.id')),
    last_used_at: writtenCell(emptyIfNull(isoInstantSql(lastUsedOf))),
    created_at: writtenCell(isoInstantSql(sql.ref('users.created_at'))),
  };
  return csvLineSql(SERVICE_USER_CSV_COLUMNS.map((column) => cells[column]));
}
