/**
 * The columns of the users export (`GET user/export`), in file order: the header row names them as
 * written here. The server's writer and the tests read this one list.
 */
export const USER_CSV_COLUMNS = [
  'user_name',
  'first_name',
  'last_name',
  'email',
  'access_scope',
  'primary_account',
  'status',
  'email_verified',
  'roles',
  'last_sign_in_at',
  'created_at',
] as const;
export type UserCsvColumn = (typeof USER_CSV_COLUMNS)[number];

/** One user of the export, cell by column. */
export type UserCsvRecord = Readonly<Record<UserCsvColumn, string>>;

/**
 * Separates the role names in the `roles` cell: a character role names cannot contain, as in the
 * bulk-creation file (decision 038).
 */
export const ROLE_NAME_SEPARATOR = '|';

/**
 * The columns of the bulk user-creation file (decision 038): a header row, then one user a row.
 * Header names are trimmed and matched without case, in any order; the required ones must be there,
 * the optional ones may be, any other name refuses the file.
 */
export const BULK_USER_CSV_REQUIRED_COLUMNS = ['first_name', 'last_name', 'email', 'user_name'] as const;
export const BULK_USER_CSV_OPTIONAL_COLUMNS = ['phone', 'locale', 'roles'] as const;
export const BULK_USER_CSV_COLUMNS = [
  ...BULK_USER_CSV_REQUIRED_COLUMNS,
  ...BULK_USER_CSV_OPTIONAL_COLUMNS,
] as const;
export type BulkUserCsvColumn = (typeof BULK_USER_CSV_COLUMNS)[number];

/** The most data rows one file may hold. */
export const BULK_USER_MAX_ROWS = 10_000;
/** The largest file, in bytes: the body limit of POST user/bulk/validate. */
export const BULK_USER_MAX_BYTES = 4 * 1024 * 1024;

/** The template the page offers: the header row, every column in file order. */
export const BULK_USER_CSV_TEMPLATE = `${BULK_USER_CSV_COLUMNS.join(',')}\r\n`;

/** The columns of the bulk report (GET user/bulk/{jobId}/report), in file order. */
export const BULK_REPORT_CSV_COLUMNS = [
  'row',
  'line',
  'user_name',
  'email',
  'first_name',
  'last_name',
  'outcome',
  'reasons',
  'user_id',
] as const;
