import type { Kysely } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { TenantSortColumn } from '../../contract/sort-columns.ts';
import { copyOutLines } from '../db/copy-out.ts';
import { exportLines, lineBatches } from '../db/export-lines.ts';
import { orderByKeys } from '../db/keyset.ts';
import type { Database } from '../db/schema.ts';
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

const withLine = (accounts: FilteredAccounts) => accounts.select(tenantCsvLine.as('line'));

/**
 * The accounts export (GET tenants/export): the line of every account the list would show, in its
 * order, written by the database (`exportLines`, decision 027).
 */
export function tenantCsvBody(
  db: Kysely<Database>,
  principal: Principal,
  filters: TenantFilters,
  sort: SortOrder<TenantSortColumn>,
  today: string,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  const accounts = () => filteredAccounts(db, principal, filters, today);
  const { column, direction } = sort;
  if (column !== 'partner_account_name') {
    return exportLines(db, () => withLine(accounts()), sortKeys(column), direction);
  }
  const keys = [partnerNameKey, ...sortKeys('name')];
  return (
    copyOutLines(db, orderByKeys(withLine(accounts()), keys, direction)) ??
    linesByPartnerGroup(db, accounts, direction)
  );
}

/**
 * The lines sorted by partner name in batches: the partner groups in order, each group's accounts
 * by name through the index, instead of re-sorting every remaining account for each batch
 * (measured at 100,000 accounts: 22 s against 0.6 s). One COPY sorts once and needs none of it.
 */
async function* linesByPartnerGroup(
  db: Kysely<Database>,
  accounts: () => FilteredAccounts,
  direction: 'asc' | 'desc',
): AsyncGenerator<string, void, undefined> {
  for (const group of await partnerGroups(db, accounts(), direction)) {
    yield* lineBatches(() => withLine(inPartnerGroup(accounts(), group)), sortKeys('name'), direction);
  }
}
