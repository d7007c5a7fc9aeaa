import type { TenantSummary } from '../../contract/schemas/tenants.ts';
import { TENANT_CSV_COLUMNS, type TenantCsvRecord } from '../../contract/tenant-csv.ts';
import { csvLine } from '../http/csv-stream.ts';

/** The accounts list as CSV, written by the one CSV writer of the platform (`http/csv-stream.ts`). */

export const TENANT_CSV_HEADER = csvLine(TENANT_CSV_COLUMNS);

/** One account's cells; the type holds it to the contract's columns, none missing and none extra. */
function tenantCsvRecord(tenant: TenantSummary): TenantCsvRecord {
  return {
    name: tenant.name,
    status: tenant.active ? 'active' : 'inactive',
    friendly_identifier: tenant.friendly_identifier,
    start_date: tenant.service_period.from,
    end_date: tenant.service_period.to ?? '',
    type: tenant.type,
    partner_account_name: tenant.partner_account_name ?? '',
    federation_status: tenant.federation_status ?? '',
    federated_account_id: tenant.federated_account_id ?? '',
  };
}

/** One account as a CSV line, its cells in the header's order; absent values are empty cells. */
export function tenantCsvLine(tenant: TenantSummary): string {
  const record = tenantCsvRecord(tenant);
  return csvLine(TENANT_CSV_COLUMNS.map((column) => record[column]));
}
