import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import type { CertificateProfile } from '../../../../contract/schemas/certificate-profiles.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { ProfileSortColumn, SortOrder } from '../../../../contract/sort-columns.ts';
import { AccountFilterField } from '../../../components/account-filter-field.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { PROFILE_MANAGE_FLAGS } from '../access.ts';
import { type ProfileListSearch, profileListQuery, profileSortOf } from '../list-search.ts';
import { profileListQueryOptions } from '../queries.ts';
import { ProfileDeleteDialog } from './profile-delete-dialog.tsx';
import { KEY_USAGE_LABELS, keyTypesText } from './profile-labels.ts';
import './certificate-profiles.css';
import { ListCount } from '../../../components/list/list-count.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

/** Certificate authority › Profiles: the profiles of the accounts the viewer reaches, by 20. */
export function ProfilesListPage({ search }: { search: ProfileListSearch }) {
  const { t } = useLingui();
  const viewer = useProfile();
  const permissions = usePermissionFlags();
  const manages = PROFILE_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const otherAccounts = viewer.access_scope !== 'account';
  const sort = profileSortOf(search);
  const list = useQuery(profileListQueryOptions(profileListQuery(search)));
  const [deleting, setDeleting] = useState<CertificateProfile | null>(null);

  const { page, changeFilter, changeSort, changePage } = useListAddress<ProfileListSearch, ProfileSortColumn>(
    search,
    list.isPlaceholderData ? undefined : list.data?.total,
  );
  const filtered = Boolean(search.name?.trim()) || search.account !== undefined;

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Certificate profiles</Trans>
        </PageTitle>
        {manages ? <CreateProfileControl /> : null}
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the other lists */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter certificate profiles`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`Name`}
          type="search"
          value={search.name ?? ''}
          onCommit={(typed) => changeFilter({ name: typed.trim() === '' ? undefined : typed }, true)}
        />
        {otherAccounts ? (
          <AccountFilterField value={search.account} onChange={(account) => changeFilter({ account })} />
        ) : null}
      </form>
      <p role="status" className="profiles-count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural value={list.data.total} _0="No profiles" one="# profile" other="# profiles" />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading certificate profiles…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No certificate profiles match these filters.</Trans>}
              none={<Trans>There are no certificate profiles yet.</Trans>}
              onResetFilters={() => changeFilter({ name: undefined, account: undefined })}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <ProfilesTable
              rows={items}
              sort={sort}
              onSortChange={changeSort}
              busy={list.isPlaceholderData}
              manages={manages}
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
      <ProfileDeleteDialog profile={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

/** Create profile: a link online; offline a disabled button saying why (a creation never waits). */
function CreateProfileControl() {
  return (
    <NeedsConnection>
      {(gate) =>
        gate.blocked ? (
          <Button {...gate.controlProps}>
            <Trans>Create profile</Trans>
          </Button>
        ) : (
          <Link className="button button--primary" to="/ca/profiles/create">
            <Trans>Create profile</Trans>
          </Link>
        )
      }
    </NeedsConnection>
  );
}

interface TableProps {
  rows: readonly CertificateProfile[];
  sort: SortOrder<ProfileSortColumn>;
  onSortChange: (sort: SortOrder<ProfileSortColumn>) => void;
  busy: boolean;
  manages: boolean;
  onDelete: (row: CertificateProfile) => void;
}

function ProfilesTable({ rows, sort, onSortChange, busy, manages, onDelete }: TableProps) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const sortable = (column: ProfileSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  return (
    <TableFrame label={t`Certificate profiles table`}>
      <table className="list-table profiles-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Certificate profiles</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('name', <Trans>Name</Trans>)}
            {sortable('account', <Trans>Account</Trans>)}
            <th scope="col">
              <Trans>Key types</Trans>
            </th>
            {sortable('validity', <Trans>Validity</Trans>)}
            <th scope="col">
              <Trans>Key usages</Trans>
            </th>
            {sortable('updated', <Trans>Updated</Trans>)}
            {manages ? (
              <th scope="col">
                <Trans>Actions</Trans>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const name = row.name;
            const days = row.policy.validity_days;
            return (
              <tr key={row.id}>
                <th scope="row">
                  <Link to="/ca/profiles/$id" params={{ id: row.id }}>
                    <TruncatedText text={name} />
                  </Link>
                </th>
                <td>
                  <TruncatedText text={row.account_name} />
                </td>
                <td>{keyTypesText(row.policy)}</td>
                <td>
                  <Trans>{days} days</Trans>
                </td>
                <td>{row.policy.key_usages.map((usage) => i18n._(KEY_USAGE_LABELS[usage])).join(', ')}</td>
                <td>{userDate(row.updated_at, viewer.date_format, i18n.locale)}</td>
                {manages ? (
                  <td>
                    <span className="profiles__actions">
                      <Link to="/ca/profiles/$id/edit" params={{ id: row.id }} aria-label={t`Edit ${name}`}>
                        <Trans>Edit</Trans>
                      </Link>
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
          })}
        </tbody>
      </table>
    </TableFrame>
  );
}
