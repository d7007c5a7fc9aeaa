import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { isPlatformLocale, LANGUAGE_NAMES } from '../../../../contract/locales.ts';
import type { User, UserApplicationList } from '../../../../contract/schemas/users.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DefaultApplicationPicker } from '../../../components/default-application-picker.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { notify } from '../../../components/notify.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { roleDisplayName } from '../../../components/role-labels.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useUserAction } from '../mutations.ts';
import { userApplicationsQueryOptions, userQueryOptions } from '../queries.ts';
import { heldPermissions, isStronger, mayManageScope } from '../rules.ts';
import { AdministratorActions } from './administrator-actions.tsx';
import { SCOPE_LABELS, UserStatusBadge } from './user-labels.tsx';

/**
 * One administrator (decision 039 §4 `/{id}`), with Edit and the row menu's actions beside it.
 * `apiTokens` is the API tokens section, which the route composes in on one's own page.
 */
export function AdministratorDetailsPage({
  userId,
  apiTokens,
  clientAuth,
  enrollments,
}: {
  userId: string;
  apiTokens?: ReactNode;
  /** The way to the person's client certificates, which the route composes in beside the tokens. */
  clientAuth?: ReactNode;
  /** The person's certificate enrollments, which the route composes in from the enrollments feature. */
  enrollments?: ReactNode;
}) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const profile = useProfile();
  const flags = usePermissionFlags();
  const featureFlags = useFeatureFlags();
  const user = useSuspenseQuery(userQueryOptions(userId));
  const applications = useQuery(userApplicationsQueryOptions(userId));
  const { data } = user;
  const own = data.id === profile.id;
  const stronger = isStronger(
    data.permissions.map((permission) => permission.name),
    heldPermissions(profile),
  );
  const changeable = own || (mayManageScope(flags, data.access_scope) && !stronger);
  const scope = i18n._(SCOPE_LABELS[data.access_scope]);
  const userName = data.user_name;
  return (
    <section className="page administrator-details" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          {data.first_name} {data.last_name}
        </PageTitle>
        <UserStatusBadge status={data.status} emailVerified={data.email_verified} />
      </div>
      <p className="administrator-details__summary">
        <Trans>
          Username {userName} · {scope} scope
        </Trans>{' '}
        <PrimaryAccount user={data} />
      </p>
      <div className="administrator-actions">
        {own ? (
          <>
            <Link to="/profile/edit" className="button button--primary">
              <Trans>Edit</Trans>
            </Link>
            <Link to="/profile/change-password" className="button button--secondary">
              <Trans>Change password</Trans>
            </Link>
          </>
        ) : changeable ? (
          <Link
            to={
              featureFlags.roles
                ? '/access/administrators/$id/role-user-edit'
                : '/access/administrators/$id/edit'
            }
            params={{ id: data.id }}
            className="button button--primary"
          >
            <Trans>Edit</Trans>
          </Link>
        ) : null}
        <AdministratorActions
          user={{
            ...data,
            sso: data.saml_username !== null || data.oidc_username !== null,
            hasPassword: data.password_changed_at !== null,
          }}
          stronger={stronger}
          onDetails
          onDeleted={() => void navigate({ to: '/access/administrators' })}
        />
      </div>
      <CachedDataNotice updatedAt={[user.dataUpdatedAt, applications.dataUpdatedAt]} />
      <ProfileSection user={data} />
      <section aria-labelledby="accounts-and-roles">
        <h2 id="accounts-and-roles">
          <Trans>Accounts and roles</Trans>
        </h2>
        <QueryStatus
          query={applications}
          pendingText={<Trans>Loading applications…</Trans>}
          empty={{
            when: ({ total }) => total === 0,
            content: <Trans>This administrator holds no role in any application.</Trans>,
          }}
        >
          {({ items }) => (
            <>
              <Details
                rows={items.map((application) => ({
                  label: application.app_name,
                  value: (
                    <ul className="administrator-details__roles">
                      {application.roles.map((role) => (
                        <li key={role.id}>{roleDisplayName(role, i18n)}</li>
                      ))}
                      {data.default_application === application.app_code ? (
                        <li>
                          <Trans>Default application</Trans>
                        </li>
                      ) : null}
                    </ul>
                  ),
                }))}
              />
              {changeable ? <DefaultApplication user={data} applications={items} /> : null}
            </>
          )}
        </QueryStatus>
      </section>
      <SignInSection user={data} />
      {apiTokens}
      {clientAuth}
      {enrollments}
    </section>
  );
}

/**
 * The primary account, linked when the viewer may open accounts. GET user/{id} names it by id only,
 * so the link says what it is rather than repeating an identifier.
 */
function PrimaryAccount({ user }: { user: User }) {
  const permissions = usePermissionFlags();
  if (!permissions.canViewAccount) return null;
  return (
    <Link to="/accounts/$id" params={{ id: user.primary_account_id }}>
      <Trans>Open the primary account</Trans>
    </Link>
  );
}

interface DetailRow {
  label: ReactNode;
  value: ReactNode;
}

function Details({ rows }: { rows: readonly DetailRow[] }) {
  return (
    <dl className="details">
      {rows.map((row, index) => (
        // Rows are fixed per page and never reorder, so their position identifies them.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <DetailsRow key={index} label={row.label}>
          {row.value}
        </DetailsRow>
      ))}
    </dl>
  );
}

function NotGiven() {
  return (
    <span className="administrators-table__secondary">
      <Trans>Not given</Trans>
    </span>
  );
}

function ProfileSection({ user }: { user: User }) {
  const language = isPlatformLocale(user.locale) ? LANGUAGE_NAMES[user.locale] : user.locale;
  const aliases = Object.entries(user.aliases);
  const rows: DetailRow[] = [
    { label: <Trans>First name</Trans>, value: user.first_name },
    { label: <Trans>Last name</Trans>, value: user.last_name },
    { label: <Trans>Username</Trans>, value: user.user_name },
    ...(user.saml_username ? [{ label: <Trans>SAML username</Trans>, value: user.saml_username }] : []),
    ...(user.oidc_username ? [{ label: <Trans>OIDC username</Trans>, value: user.oidc_username }] : []),
    {
      label: <Trans>E-mail</Trans>,
      value: (
        <>
          {user.email}{' '}
          <span className="administrators-table__secondary">
            {user.email_verified ? <Trans>Verified</Trans> : <Trans>Not verified</Trans>}
          </span>
        </>
      ),
    },
    { label: <Trans>Phone</Trans>, value: user.phone ?? <NotGiven /> },
    { label: <Trans>Language</Trans>, value: language },
    ...(user.access_scope === 'system'
      ? [
          {
            label: <Trans>Aliases</Trans>,
            value:
              aliases.length === 0 ? (
                <NotGiven />
              ) : (
                <ul className="administrator-details__roles">
                  {aliases.map(([identifier, value]) => (
                    <li key={identifier}>
                      {identifier}: {value}
                    </li>
                  ))}
                </ul>
              ),
          },
        ]
      : []),
  ];
  return (
    <section aria-labelledby="profile">
      <h2 id="profile">
        <Trans>Profile</Trans>
      </h2>
      <Details rows={rows} />
    </section>
  );
}

function SignInSection({ user }: { user: User }) {
  const { i18n } = useLingui();
  const viewer = useProfile();
  const date = (value: string | null) =>
    value === null ? <Trans>Never</Trans> : userDate(value, viewer.date_format, i18n.locale);
  return (
    <section aria-labelledby="sign-in">
      <h2 id="sign-in">
        <Trans>Sign-in</Trans>
      </h2>
      <Details
        rows={[
          { label: <Trans>Last sign-in</Trans>, value: date(user.last_sign_in_at) },
          { label: <Trans>Password changed</Trans>, value: date(user.password_changed_at) },
          {
            label: <Trans>Two-factor authentication</Trans>,
            value: user.mfa.locked ? (
              <Trans>Locked</Trans>
            ) : user.mfa.enrolled ? (
              <Trans>Set up</Trans>
            ) : (
              <Trans>Not set up</Trans>
            ),
          },
          { label: <Trans>Created</Trans>, value: date(user.created_at) },
        ]}
      />
    </section>
  );
}

/** The default application of `user`, through the shared picker (PUT user/{id}/defaultManager, O-25). */
function DefaultApplication({
  user,
  applications,
}: {
  user: User;
  applications: UserApplicationList['items'];
}) {
  const { t } = useLingui();
  const action = useUserAction(user.id);
  return (
    <DefaultApplicationPicker
      current={user.default_application}
      applications={applications}
      pending={action.isPending}
      error={action.error}
      onSave={(context) =>
        action.mutate(
          { kind: 'defaultApplication', context },
          { onSuccess: () => notify('success', t`Default application updated.`) },
        )
      }
    />
  );
}
