import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useRef } from 'react';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { Organization, OrganizationCreate } from '../../../../contract/schemas/organizations.ts';
import {
  formatSort,
  type OrganizationSortColumn,
  type SortOrder,
} from '../../../../contract/sort-columns.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { useCountryName } from '../../../components/country-select.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ListCount } from '../../../components/list/list-count.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { usePageInRange } from '../../../components/list/use-page-in-range.ts';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { type OrganizationListSearch, organizationListQuery, organizationSortOf } from '../list-search.ts';
import { organizationListQueryOptions } from '../queries.ts';
import { PageHeading } from './page-heading.tsx';

interface OrganizationsPageProps {
  search: OrganizationListSearch;
  /** The account whose organizations are listed: the one in the address, else the header's. */
  accountId: string;
  accountName: string;
}

function OrganizationRow({
  organization,
  countryName,
  pending,
}: {
  organization: Organization;
  countryName: (code: string) => string;
  /** Queued changes of this organization not on the server yet. */
  pending: readonly OutboxEntryView[];
}) {
  return (
    <tr>
      <th scope="row">
        <Link to="/ca/organizations/$id" params={{ id: organization.id }}>
          <TruncatedText text={organization.name} />
        </Link>
        <PendingSyncBadge entries={pending} />
      </th>
      <AddressCells organization={organization} countryName={countryName} />
      <td className="organizations-table__number">{organization.contacts_count}</td>
    </tr>
  );
}

/** Address, city, state, zip code, country and phone: the cells a row has whether it is on the server or queued. */
function AddressCells({
  organization,
  countryName,
}: {
  organization: Partial<OrganizationCreate>;
  countryName: (code: string) => string;
}) {
  return (
    <>
      <td>
        <TruncatedText text={[organization.address, organization.address2].filter(Boolean).join(', ')} />
      </td>
      <td>
        <TruncatedText text={organization.city} />
      </td>
      <td>
        <TruncatedText text={organization.state} />
      </td>
      <td>{organization.zip_code}</td>
      <td>{organization.country ? countryName(organization.country) : null}</td>
      <td>{organization.phone}</td>
    </>
  );
}

/** The fields a queued creation sends, when its body has them. */
function queuedOrganization(entry: OutboxEntryView): Partial<OrganizationCreate> {
  return typeof entry.body === 'object' && entry.body !== null
    ? (entry.body as Partial<OrganizationCreate>)
    : {};
}

/** An organization created offline: not on the server yet, so no page to link to, shown from its outbox entry. */
function QueuedOrganizationRow({
  entry,
  countryName,
}: {
  entry: OutboxEntryView;
  countryName: (code: string) => string;
}) {
  const organization = queuedOrganization(entry);
  return (
    <tr>
      <th scope="row">
        <TruncatedText text={organization.name ?? entry.summary} />
        <PendingSyncBadge entries={[entry]} />
      </th>
      <AddressCells organization={organization} countryName={countryName} />
      <td className="organizations-table__number">0</td>
    </tr>
  );
}

/** The organizations of one account, searchable by name, sortable and paged by 20 (I-01, I-08). */
export function OrganizationsPage({ search, accountId, accountName }: OrganizationsPageProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const canManage = usePermissionFlags().canManageOrganization;
  const countryName = useCountryName();
  const queued = useOutboxEntries();
  const added = entriesFor(queued, apiPaths.organizations.list, 'POST').filter(
    (entry) => queuedOrganization(entry).account_id === accountId,
  );
  const sort = organizationSortOf(search);
  const page = search.page ?? 1;
  // The field keeps what was typed (a trailing space included); the query and the texts trim it.
  const typedFilter = search.name ?? '';
  const filter = typedFilter.trim();
  const list = useQuery({
    ...organizationListQueryOptions(organizationListQuery(search, accountId)),
    // Rows stay while another page, sort or filter of the same account loads; another account's never do.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2].accountId === accountId ? previous : undefined,
  });

  const updateSearch = useCallback(
    (changes: Partial<OrganizationListSearch>, replace = false) =>
      void navigate({ to: '/ca/organizations', search: (current) => ({ ...current, ...changes }), replace }),
    [navigate],
  );
  const searchInput = useRef<HTMLInputElement>(null);
  // A new filter or sort shows its first page; the filter replaces the entry, as typing is not a step back.
  const changeFilter = (typed: string) =>
    updateSearch({ name: typed.trim() === '' ? undefined : typed, page: undefined }, true);
  const changeSort = (next: SortOrder<OrganizationSortColumn>) =>
    updateSearch({ sort: formatSort(next), page: undefined });
  const replacePage = useCallback(
    (next: number) => updateSearch({ page: next === 1 ? undefined : next }, true),
    [updateSearch],
  );
  usePageInRange({
    page,
    pageSize: PAGE_SIZE,
    total: list.isPlaceholderData ? undefined : list.data?.total,
    replacePage,
  });

  const createLink = canManage ? (
    <Link
      to="/ca/organizations/create"
      search={{ accountId: search.accountId }}
      className="button button--primary"
    >
      <Trans>Create organization</Trans>
    </Link>
  ) : null;

  const sortable = (column: OrganizationSortColumn, label: string) => (
    <SortableHeader column={column} sort={sort} onSortChange={changeSort}>
      {label}
    </SortableHeader>
  );

  return (
    <section className="page" aria-labelledby="page-title">
      <PageHeading
        title={<Trans>Organizations</Trans>}
        subtitle={<Trans>Account: {accountName}</Trans>}
        actions={createLink}
      />
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      <search className="organizations-search">
        <DebouncedTextField
          ref={searchInput}
          label={t`Search by name`}
          type="search"
          value={typedFilter}
          onCommit={changeFilter}
        />
      </search>
      {/* Present from the start, so screen readers hear each new count as the user searches. */}
      <p role="status" className="organizations-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural
              value={list.data.total}
              _0="No organizations"
              one="# organization"
              other="# organizations"
            />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading organizations…</Trans>}
        empty={{
          when: ({ total }) => total === 0 && added.length === 0,
          content: filter ? (
            <>
              <p>
                <Trans>No organization name contains “{filter}”.</Trans>
              </p>
              <Button
                variant="secondary"
                onClick={() => {
                  changeFilter('');
                  searchInput.current?.focus();
                }}
              >
                <Trans>Clear search</Trans>
              </Button>
            </>
          ) : (
            <>
              <p>
                <Trans>This account has no organizations yet.</Trans>
              </p>
              {createLink}
            </>
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <TableFrame label={t`Organizations table`}>
              <table
                className="list-table organizations-table"
                aria-labelledby="page-title"
                aria-busy={list.isPlaceholderData}
              >
                <thead>
                  <tr>
                    {sortable('name', t`Name`)}
                    <th scope="col">
                      <Trans>Address</Trans>
                    </th>
                    {sortable('city', t`City`)}
                    <th scope="col">
                      <Trans>State or province</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Zip code</Trans>
                    </th>
                    {sortable('country', t`Country`)}
                    <th scope="col">
                      <Trans>Phone</Trans>
                    </th>
                    <th scope="col" className="organizations-table__number">
                      <Trans>Contacts</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page === 1
                    ? added.map((entry) => (
                        <QueuedOrganizationRow key={entry.id} entry={entry} countryName={countryName} />
                      ))
                    : null}
                  {items.map((organization) => (
                    <OrganizationRow
                      key={organization.id}
                      organization={organization}
                      countryName={countryName}
                      pending={entriesFor(queued, apiPaths.organizations.byId(organization.id))}
                    />
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <Pagination
              count={total}
              countIsLowerBound={total_is_lower_bound}
              pageSize={PAGE_SIZE}
              page={page}
              onPageChange={(next) => updateSearch({ page: next === 1 ? undefined : next })}
            />
          </>
        )}
      </QueryStatus>
    </section>
  );
}
