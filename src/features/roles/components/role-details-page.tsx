import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import { PERMISSION_GROUPS } from '../../../../contract/permissions.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { RoleDetails } from '../../../../contract/schemas/users.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { pageQuery } from '../../../components/list/list-search.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import {
  APPLICATION_NAMES,
  PERMISSION_GROUP_LABELS,
  permissionLabel,
  roleDisplayName,
} from '../../../components/role-labels.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useChangeRoleUsers } from '../mutations.ts';
import { roleQueryOptions, roleUsersQueryOptions } from '../queries.ts';
import { ArchiveRoleDialog } from './archive-role-dialog.tsx';
import { AssignUsersDialog } from './assign-users-dialog.tsx';
import { ROLE_STATUS_LABELS, ROLE_TYPE_LABELS, roleTypeOf } from './role-labels.ts';
import './roles.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** A role: its fields, its permissions by group, and the users holding it (decision 039 §6). */
export function RoleDetailsPage({ roleId }: { roleId: string }) {
  const { i18n } = useLingui();
  const { data: role, dataUpdatedAt } = useSuspenseQuery(roleQueryOptions(roleId));
  const flags = usePermissionFlags();
  const [archiving, setArchiving] = useState(false);
  const name = roleDisplayName(role, i18n);
  return (
    <section className="page role-details" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>{name}</PageTitle>
        <div className="list-heading__actions">
          {role.editable ? (
            <NeedsConnection>
              {(gate) => (
                <Link
                  to="/access/manage-user-roles/edit-role/$id"
                  params={{ id: role.id }}
                  className="button button--secondary"
                  {...gate.controlProps}
                >
                  <Trans>Edit</Trans>
                </Link>
              )}
            </NeedsConnection>
          ) : null}
          {flags.canManageUserRole ? (
            <NeedsConnection>
              {(gate) => (
                <Link
                  to="/access/manage-user-roles/clone-role/$id"
                  params={{ id: role.id }}
                  className="button button--secondary"
                  {...gate.controlProps}
                >
                  <Trans>Clone</Trans>
                </Link>
              )}
            </NeedsConnection>
          ) : null}
          {role.editable ? (
            <NeedsConnection>
              {(gate) => (
                <Button
                  variant="secondary"
                  className="button--danger"
                  onClick={() => setArchiving(true)}
                  {...gate.controlProps}
                >
                  <Trans>Archive</Trans>
                </Button>
              )}
            </NeedsConnection>
          ) : null}
        </div>
      </div>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      <RoleFields role={role} />
      <RolePermissions role={role} />
      <RoleUsers role={role} name={name} />
      <ArchiveRoleDialog role={role} name={name} open={archiving} onOpenChange={setArchiving} />
    </section>
  );
}

function RoleFields({ role }: { role: RoleDetails }) {
  const { i18n } = useLingui();
  const clonedFrom = useQuery({
    ...roleQueryOptions(role.cloned_from ?? ''),
    enabled: role.cloned_from !== null,
  });
  return (
    <dl className="details role-details__fields">
      <dt>
        <Trans>Description</Trans>
      </dt>
      <dd>{role.description || <Trans>None</Trans>}</dd>
      <dt>
        <Trans>Application</Trans>
      </dt>
      <dd>{APPLICATION_NAMES[role.app_code]}</dd>
      <dt>
        <Trans>Account</Trans>
      </dt>
      <dd>
        {role.account_id === null ? <Trans>Every account</Trans> : (role.account_name ?? role.account_id)}
      </dd>
      <dt>
        <Trans>Type</Trans>
      </dt>
      <dd>{i18n._(ROLE_TYPE_LABELS[roleTypeOf(role)])}</dd>
      <dt>
        <Trans>Status</Trans>
      </dt>
      <dd>{i18n._(ROLE_STATUS_LABELS[role.status])}</dd>
      {role.cloned_from ? (
        <>
          <dt>
            <Trans>Cloned from</Trans>
          </dt>
          <dd>
            <Link to="/access/manage-user-roles/role-detail/$id" params={{ id: role.cloned_from }}>
              {clonedFrom.data ? roleDisplayName(clonedFrom.data, i18n) : <Trans>The source role</Trans>}
            </Link>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function RolePermissions({ role }: { role: RoleDetails }) {
  const { i18n } = useLingui();
  const granted = new Set(role.permissions);
  const groups = PERMISSION_GROUPS[role.app_code]
    .map((group) => ({ id: group.id, names: group.permissions.filter((name) => granted.has(name)) }))
    .filter((group) => group.names.length > 0);
  return (
    <section aria-labelledby="role-permissions-title" className="role-details__section">
      <h2 id="role-permissions-title">
        <Trans>Permissions</Trans>
      </h2>
      {groups.length === 0 ? (
        <p>
          <Trans>This role grants no permissions.</Trans>
        </p>
      ) : (
        <div className="role-details__groups">
          {groups.map((group) => (
            <div key={group.id} className="role-details__group">
              <h3>{i18n._(PERMISSION_GROUP_LABELS[group.id])}</h3>
              <ul>
                {group.names.map((name) => (
                  <li key={name}>{permissionLabel(name, i18n)}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

function RoleUsers({ role, name }: { role: RoleDetails; name: string }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const users = useQuery(roleUsersQueryOptions(role.id, pageQuery(page, PAGE_SIZE)));
  const flags = usePermissionFlags();
  // Assigning is changing users (decision 018 §3.2); an archived role is given to no one.
  const assigns = flags.canManageUser && role.status === 'active';
  const [assigning, setAssigning] = useState(false);
  const change = useChangeRoleUsers(role.id);
  const remove = (userId: string) =>
    change.mutate({ remove: [userId] }, { onSuccess: () => notify('success', t`Permissions edited.`) });
  return (
    <section aria-labelledby="role-users-title" className="role-details__section">
      <div className="list-heading">
        <h2 id="role-users-title">
          <Trans>Users holding this role</Trans>
        </h2>
        <div className="list-heading__actions">
          {assigns ? (
            <NeedsConnection>
              {(gate) => (
                <Button onClick={() => setAssigning(true)} {...gate.controlProps}>
                  <Trans>Assign users</Trans>
                </Button>
              )}
            </NeedsConnection>
          ) : null}
          <ExportButton path={apiPaths.users.export} query={{ role_id: role.id }} fileName="role-users" />
        </div>
      </div>
      {change.error ? <FormErrorAlert error={change.error} /> : null}
      <p role="status" className="roles-count">
        {users.data ? <Plural value={users.data.total} _0="No users" one="# user" other="# users" /> : null}
      </p>
      <QueryStatus
        query={users}
        pendingText={<Trans>Loading users…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <p>
              <Trans>No user you can see holds this role.</Trans>
            </p>
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <TableFrame label={t`Users of the role`}>
              <table className="list-table roles-table" aria-busy={users.isPlaceholderData || undefined}>
                <caption className="visually-hidden">
                  <Trans>Users holding this role</Trans>
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Name</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Username</Trans>
                    </th>
                    <th scope="col">
                      <Trans>E-mail</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Account</Trans>
                    </th>
                    {assigns ? (
                      <th scope="col">
                        <span className="visually-hidden">
                          <Trans>Actions</Trans>
                        </span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {items.map((user) => {
                    const fullName = `${user.first_name} ${user.last_name}`;
                    return (
                      <tr key={user.id}>
                        <th scope="row">
                          <Link to="/access/administrators/$id" params={{ id: user.id }}>
                            {fullName}
                          </Link>
                        </th>
                        <td>{user.user_name}</td>
                        <td>{user.email}</td>
                        <td>{user.primary_account.name}</td>
                        {assigns ? (
                          <td>
                            <NeedsConnection>
                              {(gate) => (
                                <Button
                                  variant="secondary"
                                  busy={change.isPending && change.variables?.remove?.[0] === user.id}
                                  onClick={() => remove(user.id)}
                                  {...gate.controlProps}
                                >
                                  <Trans>Remove {fullName}</Trans>
                                </Button>
                              )}
                            </NeedsConnection>
                          </td>
                        ) : null}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableFrame>
            <Pagination
              count={total}
              countIsLowerBound={total_is_lower_bound}
              pageSize={PAGE_SIZE}
              page={page}
              onPageChange={setPage}
            />
          </>
        )}
      </QueryStatus>
      {assigns ? (
        <AssignUsersDialog roleId={role.id} roleName={name} open={assigning} onOpenChange={setAssigning} />
      ) : null}
    </section>
  );
}
