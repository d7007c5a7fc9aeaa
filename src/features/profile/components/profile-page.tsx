import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { isPlatformLocale, LANGUAGE_NAMES } from '../../../../contract/locales.ts';
import type { AccessScope } from '../../../../contract/permissions.ts';
import { DefaultApplicationPicker } from '../../../components/default-application-picker.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { APPLICATION_NAMES, roleDisplayName } from '../../../components/role-labels.ts';
import { Button } from '../../../components/ui/button.tsx';
import { fullNameOf, useProfile } from '../../../lib/current-user.ts';
import { useResendVerification, useSetDefaultApplication } from '../mutations.ts';
import { ownApplicationsQueryOptions } from '../queries.ts';

const SCOPE_LABELS: Readonly<Record<AccessScope, MessageDescriptor>> = {
  system: msg`System`,
  partner: msg`Partner`,
  account: msg`Account`,
};

/**
 * The signed-in user's own profile, read-only (E-01, decision 039 §7), with the ways to edit it,
 * change the password, and reach one's API tokens on one's details page (the profile redirect).
 */
export function ProfilePage() {
  const profile = useProfile();
  const { i18n } = useLingui();
  const language = isPlatformLocale(profile.locale) ? LANGUAGE_NAMES[profile.locale] : profile.locale;
  const aliases = Object.entries(profile.aliases).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>{fullNameOf(profile)}</PageTitle>
      <p className="form__actions">
        <Link to="/profile/edit" className="button button--primary">
          <Trans>Edit profile</Trans>
        </Link>
        <Link to="/profile/change-password" className="button button--secondary">
          <Trans>Change password</Trans>
        </Link>
        <Link to="/profile/details" className="button button--secondary">
          <Trans>API tokens and certificates</Trans>
        </Link>
      </p>
      <dl className="details">
        <dt>
          <Trans>First name</Trans>
        </dt>
        <dd>{profile.first_name}</dd>
        <dt>
          <Trans>Last name</Trans>
        </dt>
        <dd>{profile.last_name}</dd>
        <dt>
          <Trans>Username</Trans>
        </dt>
        <dd>{profile.user_name}</dd>
        {profile.saml_username ? (
          <>
            <dt>
              <Trans>SAML username</Trans>
            </dt>
            <dd>{profile.saml_username}</dd>
          </>
        ) : null}
        {profile.oidc_username ? (
          <>
            <dt>
              <Trans>OIDC username</Trans>
            </dt>
            <dd>{profile.oidc_username}</dd>
          </>
        ) : null}
        <dt>
          <Trans>Email</Trans>
        </dt>
        <dd>
          {profile.email}
          {profile.email_verified ? null : (
            <>
              {' '}
              <Trans>(not verified)</Trans> <ResendVerification userId={profile.id} />
            </>
          )}
        </dd>
        <dt>
          <Trans>Phone</Trans>
        </dt>
        <dd>{profile.phone ?? <Trans>None</Trans>}</dd>
        <dt>
          <Trans>Language</Trans>
        </dt>
        <dd>{language}</dd>
        <dt>
          <Trans>Access scope</Trans>
        </dt>
        <dd>{i18n._(SCOPE_LABELS[profile.access_scope])}</dd>
      </dl>
      {profile.access_scope === 'system' ? (
        <>
          <h2>
            <Trans>Aliases</Trans>
          </h2>
          {aliases.length === 0 ? (
            <p>
              <Trans>You have no aliases.</Trans>
            </p>
          ) : (
            <dl className="details">
              {aliases.map(([identifier, value]) => (
                <div key={identifier} className="details__row">
                  <dt>{identifier}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </>
      ) : null}
      <h2>
        <Trans>Accounts</Trans>
      </h2>
      <ul>
        {profile.accounts.map((account) => (
          <li key={account.id}>
            {account.display_name}
            {account.id === profile.primary_account_id ? (
              <>
                {' '}
                <Trans>(primary account)</Trans>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <h2>
        <Trans>Roles</Trans>
      </h2>
      {profile.applications.length === 0 ? (
        <p>
          <Trans>You have no roles in any licensed application.</Trans>
        </p>
      ) : (
        <dl className="details">
          {profile.applications.map((application) => (
            <div key={application.app_code} className="details__row">
              <dt>{APPLICATION_NAMES[application.app_code]}</dt>
              <dd>{application.roles.map((role) => roleDisplayName(role, i18n)).join(', ')}</dd>
            </div>
          ))}
        </dl>
      )}
      <DefaultApplication userId={profile.id} current={profile.default_application} />
    </section>
  );
}

/** Sends the link that confirms one's e-mail again (decision 039 §7); needs a connection. */
function ResendVerification({ userId }: { userId: string }) {
  const { t } = useLingui();
  const resend = useResendVerification(userId);
  return (
    <NeedsConnection>
      {(gate) => (
        <Button
          variant="secondary"
          busy={resend.isPending}
          {...gate.controlProps}
          onClick={() =>
            resend.mutate(undefined, {
              onSuccess: () => notify('success', t`Verification link resent.`),
            })
          }
        >
          <Trans>Resend</Trans>
        </Button>
      )}
    </NeedsConnection>
  );
}

/** The default application, chosen among the applications one holds a role in (O-25). */
function DefaultApplication({ userId, current }: { userId: string; current: string | null }) {
  const { t } = useLingui();
  const applications = useQuery(ownApplicationsQueryOptions(userId));
  const save = useSetDefaultApplication(userId);
  const items = applications.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <>
      <h2>
        <Trans>Default application</Trans>
      </h2>
      <DefaultApplicationPicker
        current={current}
        applications={items}
        pending={save.isPending}
        error={save.error}
        onSave={(context) =>
          save.mutate(context, { onSuccess: () => notify('success', t`Default application updated.`) })
        }
      />
    </>
  );
}
