/*
 * Columns each list of the API sorts by (`sort=name:asc`). Plain constants, apart from the list
 * schemas, so that a screen's address validation can use them without loading the schemas.
 */

export const TENANT_SORT_COLUMNS = [
  'name',
  'status',
  'friendly_identifier',
  'start_date',
  'end_date',
  'type',
  'partner_account_name',
] as const;
export type TenantSortColumn = (typeof TENANT_SORT_COLUMNS)[number];

export const ORGANIZATION_SORT_COLUMNS = ['name', 'city', 'country'] as const;
export type OrganizationSortColumn = (typeof ORGANIZATION_SORT_COLUMNS)[number];
