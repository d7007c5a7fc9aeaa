import { PERMISSION_NAME_SEPARATOR, ROLE_CSV_COLUMNS, type RoleCsvRecord } from '../../contract/role-csv.ts';
import type { Role } from '../../contract/schemas/users.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The roles list as CSV, written by the one CSV writer of the platform (`http/csv-stream.ts`). */

export const ROLE_CSV_HEADER = csvLine(ROLE_CSV_COLUMNS);

/** One role's cells; the type holds it to the contract's columns, none missing and none extra. */
function roleCsvRecord(role: Role): RoleCsvRecord {
  return {
    name: role.name,
    application: role.app_code,
    type: role.built_in ? 'built_in' : 'custom',
    account_id: role.account_id ?? '',
    account_name: role.account_name ?? '',
    status: role.status,
    users: String(role.users_count),
    created_at: role.created_at,
    description: role.description,
    permissions: role.permissions.join(PERMISSION_NAME_SEPARATOR),
  };
}

/** One role as a CSV line, its cells in the header's order. */
export function roleCsvLine(role: Role): string {
  const record = roleCsvRecord(role);
  return csvLine(ROLE_CSV_COLUMNS.map((column) => record[column]));
}
