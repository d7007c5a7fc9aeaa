import type { ServiceUserSummary } from '../../contract/schemas/service-users.ts';
import { SERVICE_USER_CSV_COLUMNS, type ServiceUserCsvRecord } from '../../contract/service-user-csv.ts';
import { ROLE_NAME_SEPARATOR } from '../../contract/user-csv.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The service users list as CSV, written by the one CSV writer of the platform (`http/csv-stream.ts`). */

export const SERVICE_USER_CSV_HEADER = csvLine(SERVICE_USER_CSV_COLUMNS);

function serviceUserCsvRecord(user: ServiceUserSummary): ServiceUserCsvRecord {
  return {
    name: user.name,
    description: user.description,
    email: user.email,
    primary_account: user.primary_account.name,
    status: user.status,
    end_date: user.end_date ?? '',
    roles: user.roles.map((role) => role.name).join(ROLE_NAME_SEPARATOR),
    last_used_at: user.last_used_at ?? '',
    created_at: user.created_at,
  };
}

/** One service user as a CSV line, its cells in the header's order. */
export function serviceUserCsvLine(user: ServiceUserSummary): string {
  const record = serviceUserCsvRecord(user);
  return csvLine(SERVICE_USER_CSV_COLUMNS.map((column) => record[column]));
}
