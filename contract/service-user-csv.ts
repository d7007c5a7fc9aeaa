/**
 * The columns of the service users export (`GET service-user/export`), in file order: the header row
 * names them as written here. The server's writer and the tests read this one list.
 */
export const SERVICE_USER_CSV_COLUMNS = [
  'name',
  'description',
  'email',
  'primary_account',
  'status',
  'end_date',
  'roles',
  'last_used_at',
  'created_at',
] as const;
export type ServiceUserCsvColumn = (typeof SERVICE_USER_CSV_COLUMNS)[number];

/** One service user of the export, cell by column. */
export type ServiceUserCsvRecord = Readonly<Record<ServiceUserCsvColumn, string>>;
