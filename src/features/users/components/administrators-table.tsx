import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { Role, UserSummary } from '../../../../contract/schemas/users.ts';
import type { SortOrder, UserSortColumn } from '../../../../contract/sort-columns.ts';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { roleDisplayName } from '../../../components/role-labels.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { userDate } from '../../../lib/dates.ts';
import { seesOtherAccounts } from '../list-search.ts';
import { heldPermissions, isStronger, permissionsOfRoles } from '../rules.ts';
import { AdministratorActions } from './administrator-actions.tsx';
import { SCOPE_LABELS, UserStatusBadge } from './user-labels.tsx';

/** The Roles column names this many roles and counts the rest (decision 039 §4). */
const ROLES_SHOWN = 3;

interface AdministratorsTableProps {
  rows: readonly UserSummary[];
  viewer: Profile;
  sort: SortOrder<UserSortColumn>;
  onSortChange: (sort: SortOrder<UserSortColumn>) => void;
  /** The rows are the previous page's while the next one loads. */
  busy: boolean;
  /** The roles the viewer sees, to tell a stronger user (G4) before the server does; none when unknown. */
  roles: readonly Role[] | undefined;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: ReadonlySet<string>) => void;
}

export function AdministratorsTable({
  rows,
  viewer,
  sort,
  onSortChange,
  busy,
  roles,
  selected,
  onSelectedChange,
}: AdministratorsTableProps) {
  const { t } = useLingui();
  const selectable = rows.filter((row) => row.id !== viewer.id);
  const allSelected = selectable.length > 0 && selectable.every((row) => selected.has(row.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange(next);
  };
  const otherAccounts = seesOtherAccounts(viewer.access_scope);
  const sortable = (column: UserSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  return (
    <TableFrame label={t`Administrators table`}>
      <table className="list-table administrators-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Administrators</Trans>
        </caption>
        <thead>
          <tr>
            <td className="administrators-table__select">
              <input
                type="checkbox"
                aria-label={t`Select all administrators on this page`}
                checked={allSelected}
                disabled={selectable.length === 0}
                onChange={(event) =>
                  onSelectedChange(
                    event.currentTarget.checked ? new Set(selectable.map((row) => row.id)) : new Set(),
                  )
                }
              />
            </td>
            {sortable('name', <Trans>Name</Trans>)}
            {sortable('user_name', <Trans>Username</Trans>)}
            {sortable('email', <Trans>E-mail</Trans>)}
            {otherAccounts ? sortable('account', <Trans>Account</Trans>) : null}
            {otherAccounts ? (
              <th scope="col">
                <Trans>Scope</Trans>
              </th>
            ) : null}
            <th scope="col">
              <Trans>Roles</Trans>
            </th>
            {sortable('status', <Trans>Status</Trans>)}
            {sortable('last_sign_in', <Trans>Last sign-in</Trans>)}
            {sortable('created', <Trans>Created</Trans>)}
            <th scope="col">
              <span className="visually-hidden">
                <Trans>Actions</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <AdministratorRow
              key={row.id}
              row={row}
              viewer={viewer}
              otherAccounts={otherAccounts}
              roles={roles}
              selected={selected.has(row.id)}
              onSelect={(on) => toggle(row.id, on)}
            />
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

function AdministratorRow({
  row,
  viewer,
  otherAccounts,
  roles,
  selected,
  onSelect,
}: {
  row: UserSummary;
  viewer: Profile;
  otherAccounts: boolean;
  roles: readonly Role[] | undefined;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const { t, i18n } = useLingui();
  const name = `${row.first_name} ${row.last_name}`;
  const own = row.id === viewer.id;
  const stronger = isStronger(
    permissionsOfRoles(
      row.roles.map((role) => role.id),
      roles,
    ),
    heldPermissions(viewer),
  );
  return (
    <tr>
      <td className="administrators-table__select">
        <input
          type="checkbox"
          aria-label={own ? t`You cannot select yourself` : t`Select ${name}`}
          checked={selected}
          disabled={own}
          onChange={(event) => onSelect(event.currentTarget.checked)}
        />
      </td>
      <th scope="row">
        <Link to="/access/administrators/$id" params={{ id: row.id }}>
          <TruncatedText text={name} />
        </Link>
      </th>
      <td>
        <TruncatedText text={row.user_name} />
      </td>
      <td>
        <TruncatedText text={row.email} />
      </td>
      {otherAccounts ? (
        <td>
          <TruncatedText text={row.primary_account.name} />
        </td>
      ) : null}
      {otherAccounts ? <td>{i18n._(SCOPE_LABELS[row.access_scope])}</td> : null}
      <td>
        <RoleNames roles={row.roles} />
      </td>
      <td>
        <UserStatusBadge status={row.status} emailVerified={row.email_verified} />
      </td>
      <td>
        {row.last_sign_in_at === null ? (
          <Trans>Never</Trans>
        ) : (
          userDate(row.last_sign_in_at, viewer.date_format, i18n.locale)
        )}
      </td>
      <td>{userDate(row.created_at, viewer.date_format, i18n.locale)}</td>
      <td>
        <AdministratorActions user={row} stronger={stronger} />
      </td>
    </tr>
  );
}

/** The first roles by name and how many more; every name stays in the cell's title. */
function RoleNames({ roles: held }: { roles: UserSummary['roles'] }) {
  const { t, i18n } = useLingui();
  const roles = held.map((role) => ({ id: role.id, name: roleDisplayName(role, i18n) }));
  if (roles.length === 0) {
    return (
      <span className="administrators-table__secondary">
        <Trans>No roles</Trans>
      </span>
    );
  }
  const shown = roles.slice(0, ROLES_SHOWN).map((role) => role.name);
  const more = roles.length - shown.length;
  const all = roles.map((role) => role.name).join(', ');
  const rest = roles
    .slice(ROLES_SHOWN)
    .map((role) => role.name)
    .join(', ');
  return (
    <span title={all}>
      <TruncatedText text={shown.join(', ')} />
      {more > 0 ? (
        <span className="administrators-table__secondary">
          <span aria-hidden="true">+{more}</span>
          <span className="visually-hidden">{t`and ${more} more: ${rest}`}</span>
        </span>
      ) : null}
    </span>
  );
}
