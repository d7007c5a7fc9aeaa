/**
 * The columns of the accounts export (`GET tenants/export`), in file order: the header row names
 * them as written here. The server's writer, the browser scenarios and the tests read this one list.
 */
export const TENANT_CSV_COLUMNS = [
  'name',
  'status',
  'friendly_identifier',
  'start_date',
  'end_date',
  'type',
  'partner_account_name',
  'federation_status',
  'federated_account_id',
] as const;
export type TenantCsvColumn = (typeof TENANT_CSV_COLUMNS)[number];

/** One account of the export, cell by column. */
export type TenantCsvRecord = Readonly<Record<TenantCsvColumn, string>>;
