import { Trans, useLingui } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import { ACCOUNTS_TABLE_DEFAULT_LIMIT } from '../../../../contract/constants.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { TenantList } from '../../../../contract/schemas/tenants.ts';
import type { SortOrder, TenantSortColumn } from '../../../../contract/sort-columns.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import type { AccountListColumns } from '../list-state.ts';
import { AccountsListTable } from './accounts-list-table.tsx';

interface AccountsListResultsProps {
  list: UseQueryResult<TenantList>;
  profile: Profile;
  columns: AccountListColumns;
  sort: SortOrder<TenantSortColumn>;
  onSortChange: (sort: SortOrder<TenantSortColumn>) => void;
  page: number;
  onPageChange: (page: number) => void;
  onResetFilters: () => void;
}

/** The table with its count and pages, or what stands in for it while loading, on failure or when empty. */
export function AccountsListResults({
  list,
  profile,
  columns,
  sort,
  onSortChange,
  page,
  onPageChange,
  onResetFilters,
}: AccountsListResultsProps) {
  const { t } = useLingui();
  return (
    <QueryStatus
      query={list}
      pendingText={<Trans>Loading accounts…</Trans>}
      empty={{
        when: ({ total }) => total === 0,
        content: (
          <>
            <p>
              <Trans>No accounts match these filters.</Trans>
            </p>
            <Button variant="secondary" onClick={onResetFilters}>
              <Trans>Reset filters</Trans>
            </Button>
          </>
        ),
      }}
    >
      {({ items, total, total_is_lower_bound }) => {
        const first = Math.min(total, (page - 1) * ACCOUNTS_TABLE_DEFAULT_LIMIT + 1);
        const last = Math.min(total, first + items.length - 1);
        return (
          <>
            <AccountsListTable
              rows={items}
              profile={profile}
              columns={columns}
              sort={sort}
              onSortChange={onSortChange}
              busy={list.isPlaceholderData}
            />
            <div className="accounts-list__footer">
              <p className="accounts-list__range" role="status">
                {total_is_lower_bound
                  ? t`${first}–${last} of more than ${total}`
                  : t`${first}–${last} of ${total}`}
              </p>
              <Pagination
                count={total}
                countIsLowerBound={total_is_lower_bound}
                pageSize={ACCOUNTS_TABLE_DEFAULT_LIMIT}
                page={page}
                onPageChange={onPageChange}
              />
            </div>
          </>
        );
      }}
    </QueryStatus>
  );
}
