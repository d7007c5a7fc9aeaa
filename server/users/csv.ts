import type { UserSummary } from '../../contract/schemas/users.ts';
import { ROLE_NAME_SEPARATOR, USER_CSV_COLUMNS, type UserCsvRecord } from '../../contract/user-csv.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The users list as CSV, written by the one CSV writer of the platform (`http/csv-stream.ts`). */

export const USER_CSV_HEADER = csvLine(USER_CSV_COLUMNS);

/** One user's cells; the type holds it to the contract's columns, none missing and none extra. */
function userCsvRecord(user: UserSummary): UserCsvRecord {
  return {
    user_name: user.user_name,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    access_scope: user.access_scope,
    primary_account: user.primary_account.name,
    status: user.status,
    email_verified: user.email_verified ? 'true' : 'false',
    roles: user.roles.map((role) => role.name).join(ROLE_NAME_SEPARATOR),
    last_sign_in_at: user.last_sign_in_at ?? '',
    created_at: user.created_at,
  };
}

/** One user as a CSV line, its cells in the header's order; absent values are empty cells. */
export function userCsvLine(user: UserSummary): string {
  const record = userCsvRecord(user);
  return csvLine(USER_CSV_COLUMNS.map((column) => record[column]));
}
