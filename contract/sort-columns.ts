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

/** The users list (decision 035 §1); `account` is the primary account's name. */
export const USER_SORT_COLUMNS = [
  'name',
  'user_name',
  'email',
  'account',
  'status',
  'last_sign_in',
  'created',
] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

/** The service users list (decision 039 §5); `account` is the primary account's name. */
export const SERVICE_USER_SORT_COLUMNS = [
  'name',
  'account',
  'status',
  'end_date',
  'last_used',
  'created',
] as const;
export type ServiceUserSortColumn = (typeof SERVICE_USER_SORT_COLUMNS)[number];

/** The roles list; `application` is the application's code, `type` built-in before custom. */
export const ROLE_SORT_COLUMNS = ['name', 'application', 'type', 'users', 'created'] as const;
export type RoleSortColumn = (typeof ROLE_SORT_COLUMNS)[number];

/** The certificate profiles list; `account` is the account's name, `validity` the days it gives. */
export const PROFILE_SORT_COLUMNS = ['name', 'account', 'validity', 'updated'] as const;
export type ProfileSortColumn = (typeof PROFILE_SORT_COLUMNS)[number];

export type SortDirection = 'asc' | 'desc';
export interface SortOrder<TColumn extends string> {
  column: TColumn;
  direction: SortDirection;
}

/**
 * The one written form of a sort order, in the API's query string and the console's addresses:
 * `column:asc` or `column:desc` (account administration §7).
 */
export function formatSort<TColumn extends string>(order: SortOrder<TColumn>): `${TColumn}:${SortDirection}` {
  return `${order.column}:${order.direction}`;
}

/** The sort order `text` writes, when it names one of `columns` and a direction; else undefined. */
export function parseSort<TColumn extends string>(
  columns: readonly TColumn[],
  text: string,
): SortOrder<TColumn> | undefined {
  const [column, direction, ...rest] = text.split(':');
  const known = columns.find((candidate) => candidate === column);
  if (known === undefined || rest.length > 0 || (direction !== 'asc' && direction !== 'desc'))
    return undefined;
  return { column: known, direction };
}

/**
 * The certificates list (decision 019); `account` is the account's name, `profile` the profile's
 * name when issued, `valid_to` the end of validity, `issued` when it was issued.
 */
export const CERTIFICATE_SORT_COLUMNS = [
  'common_name',
  'serial_number',
  'account',
  'profile',
  'status',
  'valid_to',
  'issued',
] as const;
export type CertificateSortColumn = (typeof CERTIFICATE_SORT_COLUMNS)[number];

/** The audit log: by time of the event (chain order breaks ties). */
export const AUDIT_LOG_SORT_COLUMNS = ['timestamp'] as const;
export type AuditLogSortColumn = (typeof AUDIT_LOG_SORT_COLUMNS)[number];
