import { Trans, useLingui } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import { ACCOUNTS_TABLE_DEFAULT_LIMIT } from '../../../../contract/constants.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { SortOrder } from '../../../../contract/schemas/query.ts';
import type { TenantList } from '../../../../contract/schemas/tenants.ts';
import type { TenantSortColumn } from '../../../../contract/sort-columns.ts';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useOnline } from '../../../lib/offline/online.ts';
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
  const online = useOnline();

  if (!list.data && !online) {
    return (
      <p className="accounts-list__status" role="status">
        <Trans>
          This page of the list was not loaded before the connection was lost. It shows once you are back
          online.
        </Trans>
      </p>
    );
  }
  if (list.isPending) {
    return (
      <p className="accounts-list__status" role="status">
        <Trans>Loading accounts…</Trans>
      </p>
    );
  }
  if (list.isError) {
    return (
      <div className="accounts-list__status">
        <ServerErrorAlert error={list.error} />
        <Button variant="secondary" onClick={() => void list.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  const { items, total } = list.data;
  if (total === 0) {
    return (
      <div className="empty-state accounts-list__status" role="status">
        <p>
          <Trans>No accounts match these filters.</Trans>
        </p>
        <Button variant="secondary" onClick={onResetFilters}>
          <Trans>Reset filters</Trans>
        </Button>
      </div>
    );
  }

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
          {t`${first}–${last} of ${total}`}
        </p>
        <Pagination
          count={total}
          pageSize={ACCOUNTS_TABLE_DEFAULT_LIMIT}
          page={page}
          onPageChange={onPageChange}
        />
      </div>
    </>
  );
}
