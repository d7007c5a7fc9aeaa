import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import { ENROLLMENT_STATUSES, type Enrollment } from '../../../../contract/schemas/enrollments.ts';
import type { SortOrder } from '../../../../contract/sort-columns.ts';
import { AccountFilterField } from '../../../components/account-filter-field.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { ENROLLMENT_MANAGE_FLAGS } from '../access.ts';
import {
  type EnrollmentListSearch,
  type EnrollmentSortColumn,
  enrollmentListQuery,
  enrollmentSortOf,
} from '../list-search.ts';
import { enrollmentListQueryOptions } from '../queries.ts';
import { ENROLLMENT_STATUS_LABELS, EnrollmentStatusBadge, SEAT_KIND_LABELS } from './enrollment-labels.tsx';
import './enrollments.css';
import { ListCount } from '../../../components/list/list-count.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

const NO_FILTERS: Partial<EnrollmentListSearch> = {
  q: undefined,
  status: undefined,
  account: undefined,
  seat: undefined,
  user: undefined,
  page: undefined,
};

/**
 * Certificate authority › Enrollments: the enrollments of the accounts the viewer reaches, with their
 * seat, profile and status, filtered, sorted and paged by 20; New enrollment for whoever manages them.
 */
export function EnrollmentsPage({ search }: { search: EnrollmentListSearch }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const permissions = usePermissionFlags();
  const manages = ENROLLMENT_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const otherAccounts = viewer.access_scope !== 'account';
  const sort = enrollmentSortOf(search);
  const list = useQuery(enrollmentListQueryOptions(enrollmentListQuery(search)));
  const { page, changeFilter, changeSort, changePage } = useListAddress<
    EnrollmentListSearch,
    EnrollmentSortColumn
  >(search, list.isPlaceholderData ? undefined : list.data?.total);

  const filtered =
    Boolean(search.q?.trim()) ||
    search.status !== undefined ||
    search.account !== undefined ||
    search.seat !== undefined ||
    search.user !== undefined;
  const any = { value: '', label: t`All` };

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Enrollments</Trans>
        </PageTitle>
        {manages ? (
          <div className="enrollments__actions">
            <Link
              to="/ca/enrollments/create"
              search={search.account ? { account: search.account } : {}}
              className="button button--primary"
            >
              <Trans>New enrollment</Trans>
            </Link>
          </div>
        ) : null}
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the other lists */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter enrollments`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Search`}
          description={t`Name or e-mail of the person or device`}
          type="search"
          value={search.q ?? ''}
          onCommit={(typed) => changeFilter({ q: typed.trim() === '' ? undefined : typed }, true)}
        />
        <SelectField
          label={t`Status`}
          value={search.status ?? ''}
          options={[
            any,
            ...ENROLLMENT_STATUSES.map((status) => ({
              value: status,
              label: i18n._(ENROLLMENT_STATUS_LABELS[status]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ status: ENROLLMENT_STATUSES.find((status) => status === event.target.value) })
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
      {search.seat !== undefined || search.user !== undefined ? (
        <p className="enrollments-count">
          <Trans>Showing the enrollments of one person or device.</Trans>{' '}
          <Button variant="secondary" onClick={() => changeFilter({ seat: undefined, user: undefined })}>
            <Trans>Show all enrollments</Trans>
          </Button>
        </p>
      ) : null}
      <p role="status" className="enrollments-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural value={list.data.total} _0="No enrollments" one="# enrollment" other="# enrollments" />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading enrollments…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No enrollments match these filters.</Trans>}
              none={
                manages ? (
                  <Trans>
                    No one has been enrolled yet. Start with New enrollment: the person or the device's
                    technician receives a link by e-mail.
                  </Trans>
                ) : (
                  <Trans>There are no enrollments you can see.</Trans>
                )
              }
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <EnrollmentsTable
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
  rows: readonly Enrollment[];
  sort: SortOrder<EnrollmentSortColumn>;
  onSortChange: (sort: SortOrder<EnrollmentSortColumn>) => void;
  busy: boolean;
}

function EnrollmentsTable({ rows, sort, onSortChange, busy }: TableProps) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const sortable = (column: EnrollmentSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  const date = (value: string) => userDate(value, viewer.date_format, i18n.locale);
  return (
    <TableFrame label={t`Enrollments table`}>
      <table className="list-table enrollments-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Enrollments</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('seat_name', <Trans>Person or device</Trans>)}
            <th scope="col">
              <Trans>Account</Trans>
            </th>
            <th scope="col">
              <Trans>Profile</Trans>
            </th>
            {sortable('status', <Trans>Status</Trans>)}
            {sortable('created_at', <Trans>Created</Trans>)}
            <th scope="col">
              <Trans>Link expires</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to="/ca/enrollments/$id" params={{ id: row.id }}>
                  <TruncatedText text={row.seat.name} />
                </Link>
                <span className="enrollments__secondary">{i18n._(SEAT_KIND_LABELS[row.seat.kind])}</span>
              </th>
              <td>
                <TruncatedText text={row.account_name} />
              </td>
              <td>
                <TruncatedText text={row.profile_name} />
              </td>
              <td>
                <EnrollmentStatusBadge status={row.status} />
              </td>
              <td>{date(row.created_at)}</td>
              <td>{date(row.code_expires_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
