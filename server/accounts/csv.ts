import type { TenantSummary } from '../../contract/schemas/tenants.ts';

/**
 * The accounts list as CSV (RFC 4180): CRLF line ends, a field quoted when it holds a quote, comma or
 * line break, quotes doubled. A cell a spreadsheet would read as a formula (starting with = + - @, a
 * tab or a carriage return) gets a leading apostrophe, so an account name such as `=HYPERLINK(…)`
 * arrives as text (OWASP, CSV injection).
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

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const TENANT_CSV_HEADER = csvLine(TENANT_CSV_COLUMNS);

/** One account as a CSV line; absent values are empty cells. */
export function tenantCsvLine(tenant: TenantSummary): string {
  return csvLine([
    tenant.name,
    tenant.active ? 'active' : 'inactive',
    tenant.friendly_identifier,
    tenant.service_period.from,
    tenant.service_period.to ?? '',
    tenant.type,
    tenant.partner_account_name ?? '',
    tenant.federation_status ?? '',
    tenant.federated_account_id ?? '',
  ]);
}
