import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import {
  SERVICE_USER_STATUSES,
  type ServiceUserSummary,
} from '../../../../contract/schemas/service-users.ts';
import type { ServiceUserSortColumn, SortOrder } from '../../../../contract/sort-columns.ts';
import { AccountFilterField } from '../../../components/account-filter-field.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { ListCount } from '../../../components/list/list-count.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { roleDisplayName } from '../../../components/role-labels.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate, parseCalendarDate, userDate } from '../../../lib/dates.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { SERVICE_USER_MANAGE_FLAGS } from '../access.ts';
import {
  type ServiceUserListSearch,
  serviceUserFilterQuery,
  serviceUserListQuery,
  serviceUserSortOf,
} from '../list-search.ts';
import { serviceUserListQueryOptions } from '../queries.ts';
import { ServiceUserDeleteDialog } from './service-user-delete-dialog.tsx';
import { SERVICE_USER_STATUS_LABELS, ServiceUserStatusBadge } from './service-user-labels.tsx';
import { ServiceUserStatusDialog } from './service-user-status-dialog.tsx';

const NO_FILTERS: Partial<ServiceUserListSearch> = {
  q: undefined,
  status: undefined,
  account: undefined,
  page: undefined,
};

/** Access › Service users (O-07): the service users the viewer reaches, filtered, sorted and paged by 20. */
export function ServiceUsersPage({ search }: { search: ServiceUserListSearch }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const permissions = usePermissionFlags();
  const rolesFeature = useFeatureFlags().roles;
  const manages = SERVICE_USER_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const otherAccounts = viewer.access_scope !== 'account';
  const sort = serviceUserSortOf(search);
  const list = useQuery(serviceUserListQueryOptions(serviceUserListQuery(search)));
  const [statusOf, setStatusOf] = useState<ServiceUserSummary | null>(null);
  const [deleting, setDeleting] = useState<ServiceUserSummary | null>(null);

  const { page, changeFilter, changeSort, changePage } = useListAddress<
    ServiceUserListSearch,
    ServiceUserSortColumn
  >(search, list.isPlaceholderData ? undefined : list.data?.total);

  const filtered = Boolean(search.q?.trim()) || search.status !== undefined || search.account !== undefined;
  const any = { value: '', label: t`All` };

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Service users</Trans>
        </PageTitle>
        <div className="service-users__actions">
          {manages ? <CreateServiceUserControl rolesFeature={rolesFeature} /> : null}
          <ExportButton
            path={apiPaths.serviceUsers.export}
            query={serviceUserFilterQuery(search)}
            fileName="service-users"
          />
        </div>
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the other lists */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter service users`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Search`}
          description={t`Name, description or e-mail`}
          type="search"
          value={search.q ?? ''}
          onCommit={(typed) => changeFilter({ q: typed.trim() === '' ? undefined : typed }, true)}
        />
        <SelectField
          label={t`Status`}
          value={search.status ?? ''}
          options={[
            any,
            ...SERVICE_USER_STATUSES.map((status) => ({
              value: status,
              label: i18n._(SERVICE_USER_STATUS_LABELS[status]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ status: SERVICE_USER_STATUSES.find((status) => status === event.target.value) })
          }
        />
        {otherAccounts ? (
          <AccountFilterField value={search.account} onChange={(account) => changeFilter({ account })} />
        ) : null}
      </form>
      <p role="status" className="service-users-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural
              value={list.data.total}
              _0="No service users"
              one="# service user"
              other="# service users"
            />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading service users…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No service users match these filters.</Trans>}
              none={<Trans>There are no service users you can see.</Trans>}
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <ServiceUsersTable
              rows={items}
              sort={sort}
              onSortChange={changeSort}
              busy={list.isPlaceholderData}
              manages={manages}
              rolesFeature={rolesFeature}
              onStatus={setStatusOf}
              onDelete={setDeleting}
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
      <ServiceUserStatusDialog serviceUser={statusOf} onClose={() => setStatusOf(null)} />
      <ServiceUserDeleteDialog serviceUser={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

/** Create service user: a link online; offline a disabled button saying why (a creation never waits). */
function CreateServiceUserControl({ rolesFeature }: { rolesFeature: boolean }) {
  const online = useOnline();
  if (!online) {
    return (
      <NeedsConnection>
        {(gate) => (
          <Button {...gate.controlProps}>
            <Trans>Create service user</Trans>
          </Button>
        )}
      </NeedsConnection>
    );
  }
  return (
    <Link
      className="button button--primary"
      to={rolesFeature ? '/access/service-user/role-service-user-create' : '/access/service-user/create'}
    >
      <Trans>Create service user</Trans>
    </Link>
  );
}

interface TableProps {
  rows: readonly ServiceUserSummary[];
  sort: SortOrder<ServiceUserSortColumn>;
  onSortChange: (sort: SortOrder<ServiceUserSortColumn>) => void;
  busy: boolean;
  manages: boolean;
  rolesFeature: boolean;
  onStatus: (row: ServiceUserSummary) => void;
  onDelete: (row: ServiceUserSummary) => void;
}

function ServiceUsersTable({
  rows,
  sort,
  onSortChange,
  busy,
  manages,
  rolesFeature,
  onStatus,
  onDelete,
}: TableProps) {
  const { t } = useLingui();
  const sortable = (column: ServiceUserSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  return (
    <TableFrame label={t`Service users table`}>
      <table className="list-table service-users-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Service users</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('name', <Trans>Name</Trans>)}
            <th scope="col">
              <Trans>Description</Trans>
            </th>
            {sortable('account', <Trans>Account</Trans>)}
            <th scope="col">
              <Trans>Roles</Trans>
            </th>
            {sortable('status', <Trans>Status</Trans>)}
            {sortable('end_date', <Trans>End date</Trans>)}
            {sortable('last_used', <Trans>Last used</Trans>)}
            {sortable('created', <Trans>Created</Trans>)}
            {manages ? (
              <th scope="col">
                <Trans>Actions</Trans>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <ServiceUserRow
              key={row.id}
              row={row}
              manages={manages}
              rolesFeature={rolesFeature}
              onStatus={onStatus}
              onDelete={onDelete}
            />
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

function ServiceUserRow({
  row,
  manages,
  rolesFeature,
  onStatus,
  onDelete,
}: {
  row: ServiceUserSummary;
  manages: boolean;
  rolesFeature: boolean;
  onStatus: (row: ServiceUserSummary) => void;
  onDelete: (row: ServiceUserSummary) => void;
}) {
  const { i18n, t } = useLingui();
  const viewer = useProfile();
  const name = row.name;
  const endDate = parseCalendarDate(row.end_date);
  return (
    <tr>
      <th scope="row">
        <Link to="/access/service-user/$id" params={{ id: row.id }}>
          <TruncatedText text={name} />
        </Link>
      </th>
      <td>
        <TruncatedText text={row.description} />
      </td>
      <td>
        <TruncatedText text={row.primary_account.name} />
      </td>
      <td>
        <TruncatedText text={row.roles.map((role) => roleDisplayName(role, i18n)).join(', ')} />
      </td>
      <td>
        <ServiceUserStatusBadge status={row.status} />
      </td>
      <td>
        {endDate === null ? (
          <span className="service-users__secondary">
            <Trans>No end date</Trans>
          </span>
        ) : (
          formatUserDate(endDate, viewer.date_format, i18n.locale)
        )}
      </td>
      <td>
        {row.last_used_at === null ? (
          <Trans>Never</Trans>
        ) : (
          userDate(row.last_used_at, viewer.date_format, i18n.locale)
        )}
      </td>
      <td>{userDate(row.created_at, viewer.date_format, i18n.locale)}</td>
      {manages ? (
        <td>
          <span className="service-users__actions">
            <Link
              to={
                rolesFeature
                  ? '/access/service-user/$id/role-service-user-edit'
                  : '/access/service-user/$id/edit'
              }
              params={{ id: row.id }}
              aria-label={t`Edit ${name}`}
            >
              <Trans>Edit</Trans>
            </Link>
            <NeedsConnection>
              {(gate) => (
                <Button
                  variant="link"
                  aria-label={row.status === 'disabled' ? t`Enable ${name}` : t`Disable ${name}`}
                  {...gate.controlProps}
                  onClick={() => onStatus(row)}
                >
                  {row.status === 'disabled' ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
                </Button>
              )}
            </NeedsConnection>
            <NeedsConnection>
              {(gate) => (
                <Button
                  variant="link"
                  aria-label={t`Delete ${name}`}
                  {...gate.controlProps}
                  onClick={() => onDelete(row)}
                >
                  <Trans>Delete</Trans>
                </Button>
              )}
            </NeedsConnection>
          </span>
        </td>
      ) : null}
    </tr>
  );
}
