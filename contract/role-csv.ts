/**
 * The columns of the roles export (`GET role/export`), in file order: the header row names them as
 * written here. The server's writer and the tests read this one list.
 */
export const ROLE_CSV_COLUMNS = [
  'name',
  'application',
  'type',
  'account_id',
  'account_name',
  'status',
  'description',
  'permissions',
  'users',
  'created_at',
] as const;
export type RoleCsvColumn = (typeof ROLE_CSV_COLUMNS)[number];

/** One role of the export, cell by column. */
export type RoleCsvRecord = Readonly<Record<RoleCsvColumn, string>>;

/** Separates the permission names in the `permissions` cell; no permission name contains it. */
export const PERMISSION_NAME_SEPARATOR = '|';
