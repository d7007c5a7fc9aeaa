import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import { ACCESS_SCOPES } from '../../../../contract/permissions.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import { USER_STATUSES } from '../../../../contract/schemas/users.ts';
import type { UserSortColumn } from '../../../../contract/sort-columns.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { ListCount } from '../../../components/list/list-count.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { roleDisplayName } from '../../../components/role-labels.ts';
import { SelectField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { ROLE_READ_FLAGS } from '../access.ts';
import {
  seesOtherAccounts,
  type UserListSearch,
  userFilterQuery,
  userListQuery,
  userSortOf,
} from '../list-search.ts';
import { roleChoicesQueryOptions, userListQueryOptions } from '../queries.ts';
import { mayCreateUsers } from '../rules.ts';
import { AdministratorsTable } from './administrators-table.tsx';
import { DeleteSelectedButton } from './delete-selected-dialog.tsx';
import { SCOPE_LABELS, STATUS_LABELS } from './user-labels.tsx';

const NO_FILTERS: Partial<UserListSearch> = {
  q: undefined,
  status: undefined,
  scope: undefined,
  role: undefined,
  page: undefined,
};

function pick<const T extends string>(choices: readonly T[], value: string): T | undefined {
  return choices.find((choice) => choice === value);
}

/** Access › Administrators: the people the viewer reaches, searchable, filtered, sorted and paged by 20. */
export function AdministratorsPage({ search }: { search: UserListSearch }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const otherAccounts = seesOtherAccounts(viewer.access_scope);
  const sort = userSortOf(search, viewer.access_scope);
  const list = useQuery(userListQueryOptions(userListQuery(search, viewer.access_scope)));
  const permissions = usePermissionFlags();
  // The role filter needs the roles, which not every reader of users may read.
  const seesRoles = ROLE_READ_FLAGS.some((flag) => permissions[flag]);
  const roles = useQuery({ ...roleChoicesQueryOptions(), enabled: seesRoles });
  const featureFlags = useFeatureFlags();
  // What is selected belongs to the rows shown: another page, filter or sort starts with none.
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: '',
    ids: new Set(),
  });
  const selectionKey = JSON.stringify(search);
  const selected = selection.key === selectionKey ? selection.ids : new Set<string>();
  const setSelected = (ids: ReadonlySet<string>) => setSelection({ key: selectionKey, ids });

  const { page, changeFilter, changeSort, changePage } = useListAddress<UserListSearch, UserSortColumn>(
    search,
    list.isPlaceholderData ? undefined : list.data?.total,
  );

  const filtered =
    Boolean(search.q?.trim()) ||
    search.status !== undefined ||
    search.scope !== undefined ||
    search.role !== undefined;
  const any = { value: '', label: t`All` };

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Administrators</Trans>
        </PageTitle>
        <div className="administrator-actions">
          {mayCreateUsers(permissions) ? (
            <Link
              to={
                featureFlags.roles
                  ? '/access/administrators/role-user-create'
                  : '/access/administrators/create'
              }
              className="button button--primary"
            >
              <Trans>Create administrator</Trans>
            </Link>
          ) : null}
          {mayCreateUsers(permissions) ? (
            <Link
              to={
                featureFlags.roles
                  ? '/access/administrators/role-bulk-user-create'
                  : '/access/administrators/bulk-user-create'
              }
              className="button"
            >
              <Trans>Bulk create</Trans>
            </Link>
          ) : null}
          <ExportButton
            path={apiPaths.users.export}
            query={userFilterQuery(search, viewer.access_scope)}
            fileName="administrators"
          />
        </div>
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* A form with the search role, as the accounts filters: jsdom does not map <search> to the landmark. */}
      {/* biome-ignore lint/a11y/useSemanticElements: see above */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter administrators`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Search`}
          description={t`Name, username or e-mail`}
          type="search"
          value={search.q ?? ''}
          onCommit={(typed) => changeFilter({ q: typed.trim() === '' ? undefined : typed }, true)}
        />
        <SelectField
          label={t`Status`}
          value={search.status ?? ''}
          options={[
            any,
            ...USER_STATUSES.map((status) => ({ value: status, label: i18n._(STATUS_LABELS[status]) })),
          ]}
          onChange={(event) => changeFilter({ status: pick(USER_STATUSES, event.target.value) })}
        />
        {otherAccounts ? (
          <SelectField
            label={t`Scope`}
            value={search.scope ?? ''}
            options={[
              any,
              ...ACCESS_SCOPES.map((scope) => ({ value: scope, label: i18n._(SCOPE_LABELS[scope]) })),
            ]}
            onChange={(event) => changeFilter({ scope: pick(ACCESS_SCOPES, event.target.value) })}
          />
        ) : null}
        {seesRoles ? (
          <SelectField
            label={t`Role`}
            value={search.role ?? ''}
            // Until the roles arrive (or offline, never loaded) the filter offers what the address names.
            disabled={roles.data === undefined}
            options={[
              any,
              ...(roles.data?.items.map((role) => ({ value: role.id, label: roleDisplayName(role, i18n) })) ??
                (search.role ? [{ value: search.role, label: t`Chosen role` }] : [])),
            ]}
            onChange={(event) =>
              changeFilter({ role: event.target.value === '' ? undefined : event.target.value })
            }
          />
        ) : null}
      </form>
      {/* Present from the start, so screen readers hear each new count as the user filters. */}
      <p role="status" className="administrators-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural
              value={list.data.total}
              _0="No administrators"
              one="# administrator"
              other="# administrators"
            />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading administrators…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No administrators match these filters.</Trans>}
              none={<Trans>There are no administrators you can see.</Trans>}
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            {mayCreateUsers(permissions) ? (
              <DeleteSelectedButton
                users={items.filter((item) => selected.has(item.id))}
                onDeleted={() => setSelected(new Set())}
              />
            ) : null}
            <AdministratorsTable
              roles={roles.data?.items}
              selected={selected}
              onSelectedChange={setSelected}
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
