import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import { APPLICATION_CODES } from '../../../../contract/permissions.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { ROLE_TYPES, type RoleDetails } from '../../../../contract/schemas/users.ts';
import type { RoleSortColumn, SortOrder } from '../../../../contract/sort-columns.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { APPLICATION_NAMES, roleDisplayName } from '../../../components/role-labels.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Menu } from '../../../components/ui/menu.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { switchableAccountsOf, useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import {
  ROLE_STATUS_FILTERS,
  type RoleListSearch,
  roleFilterQuery,
  roleListQuery,
  roleSortOf,
} from '../list-search.ts';
import { roleListQueryOptions } from '../queries.ts';
import { ArchiveRoleDialog } from './archive-role-dialog.tsx';
import { ROLE_STATUS_LABELS, ROLE_TYPE_LABELS, roleTypeOf } from './role-labels.ts';
import './roles.css';
import { ListCount } from '../../../components/list/list-count.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

const NO_FILTERS: Partial<RoleListSearch> = {
  q: undefined,
  application: undefined,
  type: undefined,
  role_status: undefined,
  account: undefined,
  page: undefined,
};

function pick<const T extends string>(choices: readonly T[], value: string): T | undefined {
  return choices.find((choice) => choice === value);
}

/**
 * The account filter's choices: every account, then the accounts the viewer works in, and the one
 * the address names when it is none of them (a link from elsewhere).
 */
function accountFilterOptions(
  accounts: readonly { id: string; display_name: string }[],
  chosen: string | undefined,
  any: { value: string; label: string },
) {
  const options = accounts.map((account) => ({ value: account.id, label: account.display_name }));
  const unknown = chosen !== undefined && !options.some((option) => option.value === chosen);
  return [any, ...(unknown ? [{ value: chosen, label: chosen }] : []), ...options];
}

/** Access › User roles: the roles the viewer sees, built-in and custom, filtered, sorted and paged by 20 (O-10). */
export function RolesListPage({ search }: { search: RoleListSearch }) {
  const { t, i18n } = useLingui();
  const sort = roleSortOf(search);
  const list = useQuery(roleListQueryOptions(roleListQuery(search)));
  const manages = usePermissionFlags().canManageUserRole;
  const viewer = useProfile();

  const { page, changeFilter, changeSort, changePage } = useListAddress<RoleListSearch, RoleSortColumn>(
    search,
    list.isPlaceholderData ? undefined : list.data?.total,
  );

  const filtered =
    Boolean(search.q?.trim()) ||
    search.application !== undefined ||
    search.type !== undefined ||
    search.role_status !== undefined ||
    search.account !== undefined;
  const any = { value: '', label: t`All` };
  const statusLabels = {
    active: i18n._(ROLE_STATUS_LABELS.active),
    archived: i18n._(ROLE_STATUS_LABELS.archived),
    all: t`All`,
  };

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>User roles</Trans>
        </PageTitle>
        <div className="list-heading__actions">
          {manages ? (
            <NeedsConnection>
              {(gate) => (
                <Link to="/access/manage-user-roles/create-role" className="button" {...gate.controlProps}>
                  <Trans>Create role</Trans>
                </Link>
              )}
            </NeedsConnection>
          ) : null}
          <ExportButton path={apiPaths.roles.export} query={roleFilterQuery(search)} fileName="roles" />
        </div>
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: jsdom does not map <search> to the landmark, as the other lists. */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter roles`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Search`}
          description={t`Role name`}
          type="search"
          value={search.q ?? ''}
          onCommit={(typed) => changeFilter({ q: typed.trim() === '' ? undefined : typed }, true)}
        />
        <SelectField
          label={t`Application`}
          value={search.application ?? ''}
          options={[
            any,
            ...APPLICATION_CODES.map((code) => ({ value: code, label: APPLICATION_NAMES[code] })),
          ]}
          onChange={(event) => changeFilter({ application: pick(APPLICATION_CODES, event.target.value) })}
        />
        <SelectField
          label={t`Type`}
          value={search.type ?? ''}
          options={[
            any,
            ...ROLE_TYPES.map((type) => ({ value: type, label: i18n._(ROLE_TYPE_LABELS[type]) })),
          ]}
          onChange={(event) => changeFilter({ type: pick(ROLE_TYPES, event.target.value) })}
        />
        {viewer.access_scope !== 'account' ? (
          <SelectField
            label={t`Account`}
            value={search.account ?? ''}
            options={accountFilterOptions(switchableAccountsOf(viewer), search.account, any)}
            onChange={(event) => changeFilter({ account: event.target.value || undefined })}
          />
        ) : null}
        <SelectField
          label={t`Status`}
          value={search.role_status ?? 'active'}
          options={ROLE_STATUS_FILTERS.map((status) => ({ value: status, label: statusLabels[status] }))}
          onChange={(event) => {
            const status = pick(ROLE_STATUS_FILTERS, event.target.value);
            changeFilter({ role_status: status === 'active' ? undefined : status });
          }}
        />
      </form>
      <p role="status" className="roles-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural value={list.data.total} _0="No roles" one="# role" other="# roles" />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading roles…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No roles match these filters.</Trans>}
              none={<Trans>There are no roles you can see.</Trans>}
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <RolesTable
              rows={items}
              viewer={viewer}
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

interface RolesTableProps {
  rows: readonly RoleDetails[];
  viewer: Profile;
  sort: SortOrder<RoleSortColumn>;
  onSortChange: (sort: SortOrder<RoleSortColumn>) => void;
  busy: boolean;
}

/**
 * A row's actions: View; for those who define roles Clone; Edit and Archive where the server says the
 * viewer may change the role (`editable`, the rule of GET role/{id}). Archive opens the dialog of the
 * role's page, which says how many users lose the role.
 */
function RoleRowMenu({ role, name }: { role: RoleDetails; name: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const [archiving, setArchiving] = useState(false);
  const manages = usePermissionFlags().canManageUserRole && online;
  const editable = online && role.editable;
  const params = { id: role.id };
  const entries = [
    { value: 'view', label: t`View` },
    ...(editable ? [{ value: 'edit', label: t`Edit` }] : []),
    ...(manages ? [{ value: 'clone', label: t`Clone` }] : []),
    ...(editable ? [{ value: 'archive', label: t`Archive` }] : []),
  ];
  return (
    <>
      <Menu
        trigger={<span aria-hidden="true">⋯</span>}
        triggerLabel={t`Actions for ${name}`}
        sections={[{ id: 'actions', entries }]}
        onSelect={(value) => {
          if (value === 'edit') void navigate({ to: '/access/manage-user-roles/edit-role/$id', params });
          else if (value === 'clone')
            void navigate({ to: '/access/manage-user-roles/clone-role/$id', params });
          else if (value === 'archive') setArchiving(true);
          else void navigate({ to: '/access/manage-user-roles/role-detail/$id', params });
        }}
      />
      <ArchiveRoleDialog role={role} name={name} open={archiving} onOpenChange={setArchiving} />
    </>
  );
}

function RolesTable({ rows, viewer, sort, onSortChange, busy }: RolesTableProps) {
  const { t, i18n } = useLingui();
  // Account viewers see their own account's roles only: the column would say one name on every row.
  const otherAccounts = viewer.access_scope !== 'account';
  const sortable = (column: RoleSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  return (
    <TableFrame label={t`Roles table`}>
      <table className="list-table roles-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>User roles</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('name', <Trans>Name</Trans>)}
            {sortable('application', <Trans>Application</Trans>)}
            {otherAccounts ? (
              <th scope="col">
                <Trans>Account</Trans>
              </th>
            ) : null}
            {sortable('type', <Trans>Type</Trans>)}
            <th scope="col">
              <Trans>Permissions</Trans>
            </th>
            {sortable('users', <Trans>Users</Trans>)}
            <th scope="col">
              <Trans>Status</Trans>
            </th>
            {sortable('created', <Trans>Created</Trans>)}
            <th scope="col">
              <span className="visually-hidden">
                <Trans>Actions</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((role) => (
            <tr key={role.id}>
              <th scope="row">
                <Link to="/access/manage-user-roles/role-detail/$id" params={{ id: role.id }}>
                  <TruncatedText text={roleDisplayName(role, i18n)} />
                </Link>
              </th>
              <td>{APPLICATION_NAMES[role.app_code]}</td>
              {otherAccounts ? (
                <td>
                  {role.account_name === null ? (
                    <span className="roles-table__none">
                      <Trans>Every account</Trans>
                    </span>
                  ) : (
                    <TruncatedText text={role.account_name} />
                  )}
                </td>
              ) : null}
              <td>{i18n._(ROLE_TYPE_LABELS[roleTypeOf(role)])}</td>
              <td>{role.permissions.length}</td>
              <td>{role.users_count}</td>
              <td>{i18n._(ROLE_STATUS_LABELS[role.status])}</td>
              <td>{userDate(role.created_at, viewer.date_format, i18n.locale)}</td>
              <td>
                <RoleRowMenu role={role} name={roleDisplayName(role, i18n)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
