import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type * as v from 'valibot';
import { UNLIMITED } from '../../../../contract/constants.ts';
import { intlLocaleOf } from '../../../../contract/locales.ts';
import type { signInMethodEntrySchema, Tenant } from '../../../../contract/schemas/tenants.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { SectionCard, SectionEmpty } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ExternalLink } from './account-details-external-link.tsx';
import { isLinkedAccount } from './account-details-model.ts';

type SignInMethod = v.InferOutput<typeof signInMethodEntrySchema>['signInMethod'];

const SIGN_IN_METHOD_LABELS: Readonly<Record<SignInMethod, MessageDescriptor>> = {
  standard: msg`Standard sign-in`,
  singleSignOnSaml: msg`SAML single sign-on`,
  singleSignOnOidc: msg`OpenID Connect`,
};

function EnabledText({ enabled }: { enabled: boolean }) {
  return enabled ? <Trans>Enabled</Trans> : <Trans>Disabled</Trans>;
}

interface LinkedAccountSectionProps {
  account: Tenant;
  /** Present only when the viewer may unlink this account. */
  onUnlink: (() => void) | undefined;
}

/** The external identity product that manages the account (G-15 … G-17). */
export function LinkedAccountSection({ account, onUnlink }: LinkedAccountSectionProps) {
  if (!isLinkedAccount(account)) {
    return (
      <SectionEmpty>
        <Trans>This account is not linked to an external identity product.</Trans>
      </SectionEmpty>
    );
  }
  const notRecorded = <Trans>Not recorded</Trans>;
  return (
    <>
      <dl className="details">
        <dt>
          <Trans>Provider</Trans>
        </dt>
        <dd>{account.federation_provider ?? notRecorded}</dd>
        <dt>
          <Trans>Name</Trans>
        </dt>
        <dd>
          {account.federated_account_name ? (
            <ExternalLink href={account.federated_account_details_url}>
              {account.federated_account_name}
            </ExternalLink>
          ) : (
            notRecorded
          )}
        </dd>
        <dt>
          <Trans>Federated ID</Trans>
        </dt>
        <dd>{account.federated_account_id ?? notRecorded}</dd>
      </dl>
      {onUnlink ? (
        <NeedsConnection>
          {(gate) => (
            <Button
              variant="secondary"
              className="button--danger-outline"
              onClick={onUnlink}
              {...gate.controlProps}
            >
              <Trans>Unlink account</Trans>
            </Button>
          )}
        </NeedsConnection>
      ) : null}
    </>
  );
}

/**
 * One card per application with licences allocated, listing its licence types (the Licences
 * section); applications licensed without any allocation are named in one line instead of a card each.
 */
export function LicencesSection({ account }: { account: Tenant }) {
  const { t, i18n } = useLingui();
  if (account.applications.length === 0) {
    return (
      <SectionEmpty>
        <Trans>This account has no licensed applications.</Trans>
      </SectionEmpty>
    );
  }
  const allocated = account.applications.filter((application) => application.features.length > 0);
  const unallocated = account.applications.filter((application) => application.features.length === 0);
  const names = new Intl.ListFormat(intlLocaleOf(i18n.locale), { type: 'conjunction' }).format(
    unallocated.map((application) => application.app_name),
  );
  const amount = (value: number) => (value === UNLIMITED ? t`Unlimited` : i18n.number(value));
  return (
    <>
      {allocated.length > 0 ? (
        <div className="account-cards">
          {allocated.map((application) => (
            <SectionCard
              key={application.id}
              titleId={`licence-${application.id}`}
              title={application.app_name}
            >
              <table className="account-table">
                <thead>
                  <tr>
                    <th scope="col">
                      <Trans>Licence type</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Remaining</Trans>
                    </th>
                    <th scope="col">
                      <Trans>Total allocated</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {application.features.map((feature) => (
                    <tr key={feature.name}>
                      <th scope="row">{feature.name}</th>
                      <td>{amount(feature.attributes.remaining)}</td>
                      <td>{amount(feature.attributes.limit)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </SectionCard>
          ))}
        </div>
      ) : null}
      {unallocated.length > 0 ? (
        <SectionEmpty>
          <Trans>No licences are allocated yet in {names}.</Trans>
        </SectionEmpty>
      ) : null}
    </>
  );
}

/** A card per sign-in method with its status and two-factor status. */
export function SignInSection({ account }: { account: Tenant }) {
  const { i18n } = useLingui();
  if (account.sign_in_methods === undefined) {
    return (
      <SectionEmpty>
        <Trans>Sign-in methods are not configured for accounts on this platform yet.</Trans>
      </SectionEmpty>
    );
  }
  if (account.sign_in_methods.length === 0) {
    return (
      <SectionEmpty>
        <Trans>No sign-in methods are configured for this account.</Trans>
      </SectionEmpty>
    );
  }
  return (
    <div className="account-cards">
      {account.sign_in_methods.map((method) => (
        <SectionCard
          key={method.signInMethod}
          titleId={`sign-in-${method.signInMethod}`}
          title={i18n._(SIGN_IN_METHOD_LABELS[method.signInMethod])}
        >
          <dl className="details">
            <dt>
              <Trans>Status</Trans>
            </dt>
            <dd>
              <EnabledText enabled={method.status === 'enabled'} />
            </dd>
            <dt>
              <Trans>Two-factor authentication</Trans>
            </dt>
            <dd>
              <EnabledText enabled={method.mfaStatus === 'enabled'} />
            </dd>
            {method.clientAuthCertLoginEnabled ? (
              <>
                <dt>
                  <Trans>Client-certificate login</Trans>
                </dt>
                <dd>
                  <EnabledText enabled />
                </dd>
              </>
            ) : null}
          </dl>
        </SectionCard>
      ))}
    </div>
  );
}

/** The account's OAuth clients with their status and client ID. */
export function OAuthSection({ account }: { account: Tenant }) {
  if (account.oauth_clients === undefined) {
    return (
      <SectionEmpty>
        <Trans>OAuth integrations are not configured for accounts on this platform yet.</Trans>
      </SectionEmpty>
    );
  }
  if (account.oauth_clients.length === 0) {
    return (
      <SectionEmpty>
        <Trans>This account has no OAuth integrations.</Trans>
      </SectionEmpty>
    );
  }
  return (
    <div className="account-cards">
      {account.oauth_clients.map((client) => (
        <SectionCard key={client.id} titleId={`oauth-${client.id}`} title={client.name}>
          <dl className="details">
            <dt>
              <Trans>Status</Trans>
            </dt>
            <dd>
              <EnabledText enabled={client.status === 'ENABLED'} />
            </dd>
            <dt>
              <Trans>Client ID</Trans>
            </dt>
            <dd className="account-card__code">{client.oauthClientId}</dd>
          </dl>
        </SectionCard>
      ))}
    </div>
  );
}

/**
 * Shown only to accounts with a document-signing licence. The account record does not carry its
 * signing clients, so the section says so instead of suggesting there are none.
 */
export function SigningClientsSection() {
  return (
    <SectionEmpty>
      <Trans>
        This account holds a document-signing licence. Its signing clients cannot be listed in the console
        yet.
      </Trans>
    </SectionEmpty>
  );
}
