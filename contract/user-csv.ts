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
 * bulk-creation file (decision 018 §7).
 */
export const ROLE_NAME_SEPARATOR = '|';
