import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { Organization, OrganizationCreate } from '../../../../contract/schemas/organizations.ts';
import type { OrganizationSortColumn } from '../../../../contract/sort-columns.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { useCountryName } from '../../../components/country-select.tsx';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useOnline } from '../../../lib/offline/online.ts';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import {
  DEFAULT_ORGANIZATION_SORT,
  type OrganizationListSearch,
  type OrganizationSort,
  organizationListQuery,
  sortParts,
} from '../list-search.ts';
import { organizationListQueryOptions } from '../queries.ts';
import { PageHeading } from './page-heading.tsx';

/** Long enough to let a name be typed, short enough that the list seems to follow the typing. */
const SEARCH_DEBOUNCE_MS = 300;

interface OrganizationsPageProps {
  search: OrganizationListSearch;
  /** The account whose organizations are listed: the one in the address, else the header's. */
  accountId: string;
  accountName: string;
}

function SortableHeader({
  column,
  sort,
  onSort,
  children,
}: {
  column: OrganizationSortColumn;
  sort: OrganizationSort;
  onSort: (sort: OrganizationSort) => void;
  children: ReactNode;
}) {
  const [current, direction] = sortParts(sort);
  const active = current === column;
  const next: OrganizationSort = active && direction === 'asc' ? `${column}:desc` : `${column}:asc`;
  return (
    <th scope="col" aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="organizations-table__sort" onClick={() => onSort(next)}>
        {children}
        <span aria-hidden="true" className="organizations-table__sort-mark">
          {active ? (direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
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
          {organization.name}
        </Link>
        <PendingSyncBadge entries={pending} />
      </th>
      <td>{[organization.address, organization.address2].filter(Boolean).join(', ')}</td>
      <td>{organization.city}</td>
      <td>{organization.state}</td>
      <td>{organization.zip_code}</td>
      <td>{countryName(organization.country)}</td>
      <td>{organization.phone}</td>
      <td className="organizations-table__number">{organization.contacts_count}</td>
    </tr>
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
        {organization.name ?? entry.summary}
        <PendingSyncBadge entries={[entry]} />
      </th>
      <td>{[organization.address, organization.address2].filter(Boolean).join(', ')}</td>
      <td>{organization.city}</td>
      <td>{organization.state}</td>
      <td>{organization.zip_code}</td>
      <td>{organization.country ? countryName(organization.country) : null}</td>
      <td>{organization.phone}</td>
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
  const online = useOnline();
  const queued = useOutboxEntries();
  const added = entriesFor(queued, apiPaths.organizations.list, 'POST').filter(
    (entry) => queuedOrganization(entry).account_id === accountId,
  );
  const sort = search.sort ?? DEFAULT_ORGANIZATION_SORT;
  const page = search.page ?? 1;
  const filter = search.name?.trim() ?? '';
  const list = useQuery({
    ...organizationListQueryOptions(organizationListQuery(search, accountId)),
    // Rows stay while another page, sort or filter of the same account loads; another account's never do.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2].accountId === accountId ? previous : undefined,
  });

  const updateSearch = (changes: Partial<OrganizationListSearch>, replace = false) =>
    void navigate({ to: '/ca/organizations', search: (current) => ({ ...current, ...changes }), replace });

  const [nameInput, setNameInput] = useState(filter);
  const searchInput = useRef<HTMLInputElement>(null);
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The filter this page last put in the address; any other change came from Back or Forward.
  const sentFilter = useRef(filter);
  const applyFilter = (typed: string) => {
    clearTimeout(debounce.current);
    sentFilter.current = typed.trim();
    updateSearch({ name: sentFilter.current || undefined, page: undefined }, true);
  };
  // Typing updates the address, and so the query, once the user pauses; results start at page 1.
  const changeFilter = (typed: string) => {
    setNameInput(typed);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => applyFilter(typed), SEARCH_DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(debounce.current), []);
  useEffect(() => {
    if (filter === sentFilter.current) return;
    sentFilter.current = filter;
    setNameInput(filter);
  }, [filter]);
  const changeSort = (next: OrganizationSort) => updateSearch({ sort: next, page: undefined });

  const createLink = canManage ? (
    <Link
      to="/ca/organizations/create"
      search={{ accountId: search.accountId }}
      className="button button--primary"
    >
      <Trans>Create organization</Trans>
    </Link>
  ) : null;

  const results = (() => {
    if (!list.data && !online) {
      return (
        <p role="status">
          <Trans>
            This list was not loaded before the connection was lost. It shows once you are back online.
          </Trans>
        </p>
      );
    }
    if (list.isPending) {
      return (
        <p role="status">
          <Trans>Loading organizations…</Trans>
        </p>
      );
    }
    if (list.isError) {
      return (
        <Alert tone="error">
          <p>
            <Trans>The organizations could not be loaded.</Trans>
          </p>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </Alert>
      );
    }
    const { items, total } = list.data;
    if (total === 0 && !filter && added.length === 0) {
      return (
        <div className="empty-state">
          <p>
            <Trans>This account has no organizations yet.</Trans>
          </p>
          {createLink}
        </div>
      );
    }
    if (total === 0 && added.length === 0) {
      return (
        <div className="empty-state">
          <p>
            <Trans>No organization name contains “{filter}”.</Trans>
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              setNameInput('');
              applyFilter('');
              searchInput.current?.focus();
            }}
          >
            <Trans>Clear search</Trans>
          </Button>
        </div>
      );
    }
    if (items.length === 0 && added.length === 0) {
      return (
        <div className="empty-state">
          <p>
            <Trans>This page has no organizations; the list has fewer pages now.</Trans>
          </p>
          <Button variant="secondary" onClick={() => updateSearch({ page: undefined })}>
            <Trans>Go to the first page</Trans>
          </Button>
        </div>
      );
    }
    return (
      <>
        <div className="organizations-table-scroll">
          <table
            className="organizations-table"
            aria-labelledby="page-title"
            aria-busy={list.isPlaceholderData}
          >
            <thead>
              <tr>
                <SortableHeader column="name" sort={sort} onSort={changeSort}>
                  <Trans>Name</Trans>
                </SortableHeader>
                <th scope="col">
                  <Trans>Address</Trans>
                </th>
                <SortableHeader column="city" sort={sort} onSort={changeSort}>
                  <Trans>City</Trans>
                </SortableHeader>
                <th scope="col">
                  <Trans>State or province</Trans>
                </th>
                <th scope="col">
                  <Trans>Zip code</Trans>
                </th>
                <SortableHeader column="country" sort={sort} onSort={changeSort}>
                  <Trans>Country</Trans>
                </SortableHeader>
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
        </div>
        <Pagination
          count={total}
          pageSize={PAGE_SIZE}
          page={page}
          onPageChange={(next) => updateSearch({ page: next === 1 ? undefined : next })}
        />
      </>
    );
  })();

  return (
    <section className="page" aria-labelledby="page-title">
      <PageHeading
        title={<Trans>Organizations</Trans>}
        subtitle={<Trans>Account: {accountName}</Trans>}
        actions={createLink}
      />
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      <search className="organizations-search">
        <TextField
          ref={searchInput}
          label={t`Search by name`}
          type="search"
          value={nameInput}
          onChange={(event) => changeFilter(event.currentTarget.value)}
          maxLength={256}
          autoComplete="off"
        />
      </search>
      {/* Present from the start, so screen readers hear each new count as the user searches. */}
      <p role="status" className="organizations-count">
        {list.data ? (
          <Plural
            value={list.data.total}
            _0="No organizations"
            one="# organization"
            other="# organizations"
          />
        ) : null}
      </p>
      {results}
    </section>
  );
}
