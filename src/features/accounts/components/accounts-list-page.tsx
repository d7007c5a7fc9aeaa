import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ACCOUNTS_TABLE_DEFAULT_LIMIT } from '../../../../contract/constants.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { SortOrder, TenantSortColumn } from '../../../../contract/sort-columns.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { usePageInRange } from '../../../components/list/use-page-in-range.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import {
  type AccountListFilters,
  accountFilterQuery,
  accountListColumns,
  accountListQuery,
  DEFAULT_ACCOUNT_FILTERS,
  effectiveSort,
  useAccountListPreferences,
} from '../list-state.ts';
import { accountListQueryOptions } from '../queries.ts';
import { AccountFilters } from './account-filters.tsx';
import { AccountsListCreateControl } from './accounts-list-create.tsx';
import { AccountsListResults } from './accounts-list-results.tsx';
import { ExpiryBanners } from './expiry-banners.tsx';

export interface AccountsListPageProps {
  /** 1-based, from the address bar. */
  page: number;
  /** `replace` when the page changes because the filters or sort did, not because the user paged. */
  onPageChange: (page: number, options?: { replace: boolean }) => void;
}

/** The accounts list (F-01 … F-39). */
export function AccountsListPage(props: AccountsListPageProps) {
  const profile = useProfile();
  // Filters and sort belong to the signed-in user; another user starts from their own.
  return <AccountsList key={profile.id} profile={profile} {...props} />;
}

function AccountsList({
  profile,
  page: addressPage,
  onPageChange,
}: AccountsListPageProps & { profile: Profile }) {
  const columns = accountListColumns(profile.access_scope, useFeatureFlags());
  const [preferences, savePreferences] = useAccountListPreferences(profile.id);
  // New filters or a new sort show their first page at once, without first asking for the page the
  // address still names while it changes.
  const [leavingForFirstPage, setLeavingForFirstPage] = useState(false);
  if (leavingForFirstPage && addressPage === 1) setLeavingForFirstPage(false);
  const page = leavingForFirstPage ? 1 : addressPage;
  const list = useQuery(accountListQueryOptions(accountListQuery(preferences, columns, page)));

  const backToFirstPage = () => {
    if (addressPage === 1) return;
    setLeavingForFirstPage(true);
    onPageChange(1, { replace: true });
  };
  const changeFilters = (filters: AccountListFilters) => {
    savePreferences({ ...preferences, filters });
    backToFirstPage();
  };
  const changeSort = (sort: SortOrder<TenantSortColumn>) => {
    savePreferences({ ...preferences, sort });
    backToFirstPage();
  };
  const showExpiring = (days: number) =>
    changeFilters({ ...DEFAULT_ACCOUNT_FILTERS, status: 'active', endDate: { kind: 'within', days } });

  const replacePage = useCallback((next: number) => onPageChange(next, { replace: true }), [onPageChange]);
  usePageInRange({
    page,
    pageSize: ACCOUNTS_TABLE_DEFAULT_LIMIT,
    total: list.isSuccess && !list.isPlaceholderData ? list.data.total : undefined,
    replacePage,
  });

  return (
    <section className="page accounts-list" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Accounts</Trans>
        </PageTitle>
        <div className="list-heading__actions">
          <ExportButton
            path={apiPaths.tenants.export}
            query={accountFilterQuery(preferences, columns)}
            fileName="accounts"
          />
          <AccountsListCreateControl profile={profile} />
        </div>
      </div>
      {profile.access_scope === 'system' ? (
        <ExpiryBanners userId={profile.id} onShowExpiring={showExpiring} />
      ) : null}
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      <AccountFilters filters={preferences.filters} columns={columns} onChange={changeFilters} />
      <AccountsListResults
        list={list}
        profile={profile}
        columns={columns}
        sort={effectiveSort(preferences.sort, columns)}
        onSortChange={changeSort}
        page={page}
        onPageChange={onPageChange}
        onResetFilters={() => changeFilters(DEFAULT_ACCOUNT_FILTERS)}
      />
    </section>
  );
}
