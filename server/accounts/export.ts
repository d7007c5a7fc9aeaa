import type { Kysely } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { TenantSortColumn } from '../../contract/sort-columns.ts';
import { copyOutLines } from '../db/copy-out.ts';
import { keysetBatches, orderByKeys } from '../db/keyset.ts';
import type { Database } from '../db/schema.ts';
import { EXPORT_BATCH_SIZE } from '../http/csv-stream.ts';
import type { Principal } from '../identity/principal.ts';
import { tenantCsvLine } from './csv.ts';
import {
  type FilteredAccounts,
  filteredAccounts,
  inPartnerGroup,
  partnerGroups,
  partnerNameKey,
  sortKeys,
  type TenantFilters,
} from './list.ts';

/**
 * The accounts export (GET tenants/export): the lines of every account the list would show, in its
 * order, written by the database (decision 027). PostgreSQL streams them through one COPY;
 * PGlite, a single backend that every other request waits for, reads them in keyset batches.
 */
export function tenantCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: TenantFilters,
  sort: SortOrder<TenantSortColumn>,
  today: string,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const accounts = () => filteredAccounts(db, principal, filters, today);
  const keys =
    sort.column === 'partner_account_name' ? [partnerNameKey, ...sortKeys('name')] : sortKeys(sort.column);
  return (
    copyOutLines(db, orderByKeys(withLine(accounts()), keys, sort.direction)) ??
    lineBatches(db, accounts, sort)
  );
}

const withLine = (accounts: FilteredAccounts) => accounts.select(tenantCsvLine.as('line'));

/**
 * The lines in keyset batches, each batch one piece of text. Sorted by partner name, it walks the
 * partner groups in order and each group's accounts by name, instead of re-sorting every remaining
 * account for each batch (measured at 100,000 accounts: 22 s against 0.6 s).
 */
async function* lineBatches(
  db: Kysely<Database>,
  accounts: () => FilteredAccounts,
  sort: SortOrder<TenantSortColumn>,
): AsyncGenerator<string, void, undefined> {
  const { column, direction } = sort;
  const groups =
    column === 'partner_account_name'
      ? (await partnerGroups(db, accounts(), direction)).map(
          (group) => () => inPartnerGroup(accounts(), group),
        )
      : [accounts];
  const keys = sortKeys(column === 'partner_account_name' ? 'name' : column);
  for (const group of groups) {
    for await (const rows of keysetBatches(() => withLine(group()), keys, direction, EXPORT_BATCH_SIZE)) {
      yield rows.map((row) => row.line).join('');
    }
  }
}
