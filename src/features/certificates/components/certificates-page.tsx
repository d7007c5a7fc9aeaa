import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { CERTIFICATE_STATUSES } from '../../../../contract/certificate-policy.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import type { CertificateSummary } from '../../../../contract/schemas/certificates.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { CertificateSortColumn, SortOrder } from '../../../../contract/sort-columns.ts';
import { AccountFilterField } from '../../../components/account-filter-field.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import {
  CERTIFICATE_STATUS_LABELS,
  CertificateStatusBadge,
} from '../../../components/certificate-status-badge.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import {
  type CertificateListSearch,
  certificateFilterQuery,
  certificateListQuery,
  certificateSortOf,
} from '../list-search.ts';
import { certificateListQueryOptions } from '../queries.ts';
import './certificates.css';
import { ListCount } from '../../../components/list/list-count.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

const NO_FILTERS: Partial<CertificateListSearch> = {
  q: undefined,
  status: undefined,
  account: undefined,
  page: undefined,
};

/**
 * Certificate authority › Certificates: the certificates the platform CA issued in the accounts the
 * viewer reaches, with their status (issued green, revoked red, expired gold), filtered, sorted and
 * paged by 20, and downloadable as CSV.
 */
export function CertificatesPage({ search }: { search: CertificateListSearch }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const otherAccounts = viewer.access_scope !== 'account';
  const sort = certificateSortOf(search);
  const list = useQuery(certificateListQueryOptions(certificateListQuery(search)));
  const { page, changeFilter, changeSort, changePage } = useListAddress<
    CertificateListSearch,
    CertificateSortColumn
  >(search, list.isPlaceholderData ? undefined : list.data?.total);

  const filtered = Boolean(search.q?.trim()) || search.status !== undefined || search.account !== undefined;
  const any = { value: '', label: t`All` };

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Certificates</Trans>
        </PageTitle>
        <div className="certificates__actions">
          <ExportButton
            path={apiPaths.certificates.export}
            query={{ format: 'csv', ...certificateFilterQuery(search) }}
            fileName="certificates"
          />
        </div>
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the other lists */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter certificates`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Search`}
          description={t`Common name or serial number`}
          type="search"
          value={search.q ?? ''}
          onCommit={(typed) => changeFilter({ q: typed.trim() === '' ? undefined : typed }, true)}
        />
        <SelectField
          label={t`Status`}
          value={search.status ?? ''}
          options={[
            any,
            ...CERTIFICATE_STATUSES.map((status) => ({
              value: status,
              label: i18n._(CERTIFICATE_STATUS_LABELS[status]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ status: CERTIFICATE_STATUSES.find((status) => status === event.target.value) })
          }
        />
        {otherAccounts ? (
          <AccountFilterField
            value={search.account}
            onChange={(account) => changeFilter({ account })}
            includeInactive
          />
        ) : null}
      </form>
      <p role="status" className="certificates-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural value={list.data.total} _0="No certificates" one="# certificate" other="# certificates" />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading certificates…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No certificates match these filters.</Trans>}
              none={<Trans>There are no certificates you can see.</Trans>}
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <CertificatesTable
              rows={items}
              sort={sort}
              onSortChange={changeSort}
              busy={list.isPlaceholderData}
            />
            <Pagination
              count={total}
              countIsLowerBound={total_is_lower_bound}
              pageSize={PAGE_SIZE}
              page={page}
              onPageChange={changePage}
            />
          </>
        )}
      </QueryStatus>
    </section>
  );
}

interface TableProps {
  rows: readonly CertificateSummary[];
  sort: SortOrder<CertificateSortColumn>;
  onSortChange: (sort: SortOrder<CertificateSortColumn>) => void;
  busy: boolean;
}

function CertificatesTable({ rows, sort, onSortChange, busy }: TableProps) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const sortable = (column: CertificateSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  const date = (value: string) => userDate(value, viewer.date_format, i18n.locale);
  return (
    <TableFrame label={t`Certificates table`}>
      <table className="list-table certificates-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Certificates</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('common_name', <Trans>Common name</Trans>)}
            {sortable('serial_number', <Trans>Serial number</Trans>)}
            {sortable('account', <Trans>Account</Trans>)}
            {sortable('profile', <Trans>Profile</Trans>)}
            {sortable('status', <Trans>Status</Trans>)}
            {sortable('valid_to', <Trans>Valid to</Trans>)}
            {sortable('issued', <Trans>Issued</Trans>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to="/ca/certificates/$id" params={{ id: row.id }}>
                  <TruncatedText text={row.common_name} />
                </Link>
              </th>
              <td>
                <span className="certificate-serial">
                  <TruncatedText text={row.serial_number} />
                </span>
              </td>
              <td>
                {row.account ? (
                  <TruncatedText text={row.account.name} />
                ) : (
                  <span className="certificates__secondary">
                    <Trans>Account deleted</Trans>
                  </span>
                )}
              </td>
              <td>
                {row.profile_name ? (
                  <TruncatedText text={row.profile_name} />
                ) : (
                  <span className="certificates__secondary">
                    <Trans>None</Trans>
                  </span>
                )}
              </td>
              <td>
                <CertificateStatusBadge status={row.status} />
              </td>
              <td>{date(row.not_after)}</td>
              <td>{date(row.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
