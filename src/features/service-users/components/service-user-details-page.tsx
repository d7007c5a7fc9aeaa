import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import type { ServiceUser } from '../../../../contract/schemas/service-users.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { APPLICATION_NAMES, roleDisplayName } from '../../../components/role-labels.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate, parseCalendarDate, userDate } from '../../../lib/dates.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { SERVICE_USER_MANAGE_FLAGS } from '../access.ts';
import { serviceUserQueryOptions } from '../queries.ts';
import { ServiceUserDeleteDialog } from './service-user-delete-dialog.tsx';
import { ServiceUserStatusBadge } from './service-user-labels.tsx';
import { ServiceUserStatusDialog } from './service-user-status-dialog.tsx';

/**
 * One service user (O-09 `/{id}`; decision 039 §5): its details, accounts and roles, and its API
 * tokens, the section the route composes in from the API-token feature; Edit, Enable or Disable, and
 * Delete for whoever may change it.
 */
export function ServiceUserDetailsPage({
  id,
  apiTokens,
  clientAuth,
}: {
  id: string;
  apiTokens?: ReactNode;
  /** The way to its client certificates, which the route composes in beside the tokens. */
  clientAuth?: ReactNode;
}) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const query = useSuspenseQuery(serviceUserQueryOptions(id));
  const serviceUser = query.data;
  const viewer = useProfile();
  const permissions = usePermissionFlags();
  const rolesFeature = useFeatureFlags().roles;
  const manages = SERVICE_USER_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const [changingStatus, setChangingStatus] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const endDate = parseCalendarDate(serviceUser.end_date);
  const date = (value: string | null) =>
    value === null ? <Trans>Never</Trans> : userDate(value, viewer.date_format, i18n.locale);
  const creator = serviceUser.created_by?.name;
  return (
    <section className="page service-user-details" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>{serviceUser.name}</PageTitle>
        <ServiceUserStatusBadge status={serviceUser.status} />
      </div>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      {manages ? (
        <p className="service-users__actions">
          <Link
            className="button button--secondary"
            to={
              rolesFeature
                ? '/access/service-user/$id/role-service-user-edit'
                : '/access/service-user/$id/edit'
            }
            params={{ id }}
          >
            <Trans>Edit</Trans>
          </Link>
          <NeedsConnection>
            {(gate) => (
              <Button variant="secondary" {...gate.controlProps} onClick={() => setChangingStatus(true)}>
                {serviceUser.status === 'disabled' ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
              </Button>
            )}
          </NeedsConnection>
          <NeedsConnection>
            {(gate) => (
              <Button className="button--danger" {...gate.controlProps} onClick={() => setDeleting(true)}>
                <Trans>Delete</Trans>
              </Button>
            )}
          </NeedsConnection>
        </p>
      ) : null}
      <section aria-labelledby="details">
        <h2 id="details">
          <Trans>Details</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Description</Trans>}>
            {serviceUser.description || <Trans>Not given</Trans>}
          </DetailsRow>
          <DetailsRow label={<Trans>Responsible person’s e-mail</Trans>}>{serviceUser.email}</DetailsRow>
          <DetailsRow label={<Trans>End date</Trans>}>
            {endDate === null ? (
              <Trans>No end date</Trans>
            ) : (
              formatUserDate(endDate, viewer.date_format, i18n.locale)
            )}
          </DetailsRow>
          <DetailsRow label={<Trans>Last used</Trans>}>{date(serviceUser.last_used_at)}</DetailsRow>
          <DetailsRow label={<Trans>Created</Trans>}>
            {date(serviceUser.created_at)}
            {creator ? (
              <>
                {' '}
                <Trans>by {creator}</Trans>
              </>
            ) : null}
          </DetailsRow>
        </dl>
      </section>
      <section aria-labelledby="accounts-and-roles">
        <h2 id="accounts-and-roles">
          <Trans>Accounts and roles</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Accounts</Trans>}>
            <ul className="service-user-details__list">
              {serviceUser.accounts.map((account) => (
                <li key={account.id}>{account.name}</li>
              ))}
            </ul>
          </DetailsRow>
          {rolesByApplication(serviceUser).map(({ app, roles }) => (
            <DetailsRow key={app} label={APPLICATION_NAMES[app]}>
              <ul className="service-user-details__list">
                {roles.map((role) => (
                  <li key={role.id}>{roleDisplayName(role, i18n)}</li>
                ))}
              </ul>
            </DetailsRow>
          ))}
        </dl>
      </section>
      {apiTokens}
      {clientAuth}
      <ServiceUserStatusDialog
        serviceUser={changingStatus ? serviceUser : null}
        onClose={() => setChangingStatus(false)}
      />
      <ServiceUserDeleteDialog
        serviceUser={deleting ? serviceUser : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate({ to: '/access/service-user' })}
      />
    </section>
  );
}

function rolesByApplication(serviceUser: ServiceUser) {
  const apps = [...new Set(serviceUser.roles.map((role) => role.app_code))];
  return apps.map((app) => ({ app, roles: serviceUser.roles.filter((role) => role.app_code === app) }));
}
