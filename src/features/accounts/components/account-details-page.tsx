import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useRef, useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import type { Tenant } from '../../../../contract/schemas/tenants.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { Accordion, type AccordionSection, accordionTriggerId } from '../../../components/ui/accordion.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { isFollowableUrl } from '../../../lib/external-navigation.ts';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { accountQueryOptions } from '../queries.ts';
import { canChangeAccountStatus } from '../rules.ts';
import { ExternalLink } from './account-details-external-link.tsx';
import { AccountDetailsHeader } from './account-details-header.tsx';
import {
  canDeleteAccount,
  canOpenAccountEdit,
  canUnlinkAccount,
  isLinkedAccount,
} from './account-details-model.ts';
import {
  LinkedAccountSection,
  OAuthSection,
  SignInSection,
  SigningClientsSection,
} from './account-details-sections.tsx';
import { AccountStatusAction } from './account-status-action.tsx';
import { DeleteAccountDialog } from './delete-account-dialog.tsx';
import { UnlinkAccountDialog } from './unlink-account-dialog.tsx';

/** Edit opens the form here, or for a linked account the product that manages it, in a new tab (H-18). */
function EditAccountAction({ account }: { account: Tenant }) {
  if (!isLinkedAccount(account)) {
    return (
      <Link to="/accounts/$id/edit" params={{ id: account.id }} className="button button--primary">
        <Trans>Edit account</Trans>
      </Link>
    );
  }
  const url = account.federated_account_details_url;
  if (!url || !isFollowableUrl(url)) return null;
  return (
    <ExternalLink href={url} className="button button--primary">
      <Trans>Edit account</Trans>
    </ExternalLink>
  );
}

interface AccountDetailsPageProps {
  accountId: string;
  /** The organizations section, from the organizations feature: the route composes the two. */
  organizations: ReactNode;
  /** The enrollments section, from the enrollments feature; none when the viewer may not see them. */
  enrollments?: ReactNode;
  /** The licences section of the account, from the licences feature. */
  licences: (account: Tenant) => ReactNode;
  /** The side rail with the account's licence history, from the licences feature. */
  licenceHistory: (account: Tenant) => ReactNode;
  /** The features section, from the account features feature, for the account as loaded here. */
  features: (account: Tenant) => ReactNode;
}

/** Account details (G-01 … G-20): status, sections with a side navigation, and the licence history rail. */
export function AccountDetailsPage({
  accountId,
  organizations,
  enrollments,
  licences,
  licenceHistory,
  features,
}: AccountDetailsPageProps) {
  const { t } = useLingui();
  const { data: account, dataUpdatedAt } = useSuspenseQuery(accountQueryOptions(accountId));
  const profile = useProfile();
  const flags = usePermissionFlags();
  const pending = entriesFor(useOutboxEntries(), apiPaths.tenants.byId(accountId));
  const [dialog, setDialog] = useState<'unlink' | 'delete' | null>(null);
  const [unlinked, setUnlinked] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);

  const displayName = account.display_name;
  const mayEdit = canOpenAccountEdit(profile, flags, account);
  const mayUnlink = canUnlinkAccount(profile, flags, account);
  const mayDelete = canDeleteAccount(profile, flags, account);
  const mayChangeStatus = canChangeAccountStatus(profile, flags, account);

  const sections: AccordionSection[] = [
    {
      value: 'linked-account',
      title: t`Linked account`,
      content: (
        <LinkedAccountSection
          account={account}
          onUnlink={mayUnlink ? () => setDialog('unlink') : undefined}
        />
      ),
    },
    {
      value: 'organizations',
      title: t`Organizations`,
      content: organizations,
    },
    ...(enrollments ? [{ value: 'enrollments', title: t`Enrollments`, content: enrollments }] : []),
    { value: 'licences', title: t`Licences`, content: licences(account) },
    { value: 'features', title: t`Features`, content: features(account) },
    { value: 'account-sign-in', title: t`Account sign-in`, content: <SignInSection account={account} /> },
    {
      value: 'oauth-integrations',
      title: t`OAuth integrations`,
      content: <OAuthSection account={account} />,
    },
  ];
  if (account.has_dsm_license) {
    sections.push({
      value: 'document-signing-clients',
      title: t`Document-signing clients`,
      content: <SigningClientsSection />,
    });
  }
  // Every section starts open: the page is read more than it is navigated.
  const [expanded, setExpanded] = useState<readonly string[]>(() => sections.map((section) => section.value));

  const openSection = (value: string) => {
    setExpanded((current) => (current.includes(value) ? current : [...current, value]));
    // A hash change within the page does not make the router scroll; keyboard users continue from
    // the section's heading rather than from the link.
    document.getElementById(value)?.scrollIntoView({ block: 'start' });
    document.getElementById(accordionTriggerId(value))?.focus({ preventScroll: true });
  };

  const dismissBanner = () => {
    setUnlinked(false);
    headingRef.current?.focus();
  };

  return (
    <section className="page account-details" aria-labelledby="page-title">
      <PageTitle tabIndex={-1} ref={headingRef}>
        <Trans>Account: {displayName}</Trans>
        <PendingSyncBadge entries={pending} />
      </PageTitle>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {unlinked ? (
        <div ref={bannerRef} tabIndex={-1} className="account-details__banner">
          <Alert tone="success" onDismiss={dismissBanner} dismissLabel={t`Dismiss message`}>
            <Trans>The account was unlinked from its single sign-in identity.</Trans>
          </Alert>
        </div>
      ) : null}
      <AccountDetailsHeader account={account} />
      <div className="account-details__layout">
        <nav className="account-details__nav" aria-label={t`Account sections`}>
          <ul className="account-details__anchors">
            {sections.map((section) => (
              <li key={section.value}>
                {/* By hash, or every anchor of the page would be marked as the current page. */}
                <Link
                  to="."
                  hash={section.value}
                  activeOptions={{ includeHash: true }}
                  onClick={() => openSection(section.value)}
                >
                  {section.title}
                </Link>
              </li>
            ))}
          </ul>
          {mayEdit || mayChangeStatus || mayDelete ? (
            <div className="account-details__actions">
              {mayEdit ? <EditAccountAction account={account} /> : null}
              {mayChangeStatus ? <AccountStatusAction account={account} /> : null}
              {mayDelete ? (
                <NeedsConnection>
                  {(gate) => (
                    <Button
                      variant="secondary"
                      className="button--danger-outline"
                      onClick={() => setDialog('delete')}
                      {...gate.controlProps}
                    >
                      <Trans>Delete account</Trans>
                    </Button>
                  )}
                </NeedsConnection>
              ) : null}
            </div>
          ) : null}
        </nav>
        <div className="account-details__sections">
          <Accordion sections={sections} value={expanded} onValueChange={setExpanded} />
        </div>
        {licenceHistory(account)}
      </div>
      {/* Mounted whatever the account says: the refetch after unlinking withdraws the right to unlink
          while the dialog is still finishing. */}
      <UnlinkAccountDialog
        accountId={account.id}
        provider={account.federation_provider}
        open={dialog === 'unlink'}
        onOpenChange={(open) => setDialog(open ? 'unlink' : null)}
        onUnlinked={() => setUnlinked(true)}
        finalFocusEl={() => bannerRef.current}
      />
      {mayDelete ? (
        <DeleteAccountDialog
          account={account}
          open={dialog === 'delete'}
          onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        />
      ) : null}
    </section>
  );
}
