import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { type Tenant, tenantUpdateSchema } from '../../../../contract/schemas/tenants.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { MessagePage } from '../../../components/message-page.tsx';
import { notify } from '../../../components/notify.ts';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { parseCalendarDate } from '../../../lib/dates.ts';
import { useForm } from '../../../lib/form/use-form.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useUpdateAccount } from '../mutations.ts';
import { accountKeys, accountQueryOptions } from '../queries.ts';
import { ExternalLink } from './account-details-external-link.tsx';
import { canOpenAccountEdit, isLinkedAccount } from './account-details-model.ts';
import { AccountFields, AccountFormFrame, servicePeriodRule } from './account-form-fields.tsx';

type NoAccessReason = 'scope' | 'partner' | 'system';

const NO_ACCESS_TEXTS: Readonly<
  Record<NoAccessReason, { title: MessageDescriptor; reason: MessageDescriptor }>
> = {
  scope: {
    title: msg`You cannot edit accounts`,
    reason: msg`Accounts are edited by system and partner administrators. Ask one of them to make the change.`,
  },
  partner: {
    title: msg`You cannot edit this account`,
    reason: msg`Partner administrators edit only the accounts under their partner account. A system administrator edits the partner account itself.`,
  },
  system: {
    title: msg`The System Account cannot be edited`,
    reason: msg`It belongs to the platform itself; its name, language and service period stay as they are.`,
  },
};

/** The page for viewers who may not edit this account (H-02, H-18): why, and where to go instead. */
function AccountEditNoAccess({ reason, accountId }: { reason: NoAccessReason; accountId: string }) {
  const { i18n } = useLingui();
  const texts = NO_ACCESS_TEXTS[reason];
  return (
    <MessagePage title={i18n._(texts.title)}>
      <p>{i18n._(texts.reason)}</p>
      <p className="account-section__actions">
        {reason === 'scope' ? null : (
          <Link to="/accounts/$id" params={{ id: accountId }}>
            <Trans>Go to the account details</Trans>
          </Link>
        )}
        <Link to="/accounts">
          <Trans>Go to the accounts list</Trans>
        </Link>
      </p>
    </MessagePage>
  );
}

function LinkedAccountNotice({ account }: { account: Tenant }) {
  const provider = account.federation_provider;
  return (
    <Alert tone="info">
      <p>
        {provider ? (
          <Trans>This account is managed by {provider}. Edit it there.</Trans>
        ) : (
          <Trans>This account is managed by an external identity product. Edit it there.</Trans>
        )}
      </p>
      {account.federated_account_details_url ? (
        <p>
          <ExternalLink href={account.federated_account_details_url}>
            <Trans>Open the account in its identity product</Trans>
          </ExternalLink>
        </p>
      ) : null}
    </Alert>
  );
}

function AccountEditForm({ loaded }: { loaded: Tenant }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // What the form shows and what its change is based on: the account as it was when the form opened,
  // even if the cached one changes meanwhile, so a change never claims to build on values its user
  // was never shown.
  const [account] = useState(loaded);
  const update = useUpdateAccount(account);
  const linked = isLinkedAccount(account);
  const displayName = account.display_name;
  const from = parseCalendarDate(account.service_period.from)?.toString() ?? account.service_period.from;
  const to = parseCalendarDate(account.service_period.to)?.toString() ?? '';

  const form = useForm(tenantUpdateSchema, {
    // The start date is set when the account is created; the edit sends it back as it is.
    request: (values) => ({
      name: values.name ?? '',
      locale: values.locale ?? '',
      service_period: { from, to: values['service_period.to'] ?? '' },
    }),
    refine: servicePeriodRule(to, from),
    onSubmit: async (request) => {
      if (linked) return;
      // Awaited here, not in `mutate`'s callbacks: the saved version comes back before the mutation
      // settles and starts this form again (see EditableAccount), and an unmounted form's callbacks
      // never run.
      const result = await update.mutateAsync({
        update: request,
        version: account.version,
        // The form's starting values, in the shape of its request.
        base: { name: account.name, locale: account.locale, service_period: { from, to } },
        idempotencyKey: newIdempotencyKey(),
      });
      if (isQueued(result)) {
        notify('info', t`Saved on this device. The change is sent when the connection returns.`);
      } else {
        notify('success', t`Account edited.`);
      }
      void navigate({ to: '/accounts/$id', params: { id: account.id } });
    },
  });

  return (
    <AccountFormFrame
      title={<Trans>Edit account: {displayName}</Trans>}
      notices={linked ? <LinkedAccountNotice account={account} /> : null}
      form={form}
      // Someone else changed the account: load their version, and the form starts from it.
      onReload={() =>
        void queryClient.invalidateQueries({ queryKey: accountKeys.detail(account.id), exact: true })
      }
      submit={linked ? null : { label: <Trans>Save</Trans> }}
    >
      <AccountFields
        mode="edit"
        defaults={{
          name: account.name,
          friendlyIdentifier: account.friendly_identifier,
          locale: account.locale,
          from,
          to,
        }}
        form={form}
        disabled={linked}
      />
    </AccountFormFrame>
  );
}

function EditableAccount({ accountId }: { accountId: string }) {
  const { data: account, dataUpdatedAt } = useSuspenseQuery(accountQueryOptions(accountId));
  const profile = useProfile();
  const flags = usePermissionFlags();
  if (!canOpenAccountEdit(profile, flags, account)) {
    return (
      <AccountEditNoAccess reason={account.system_account ? 'system' : 'partner'} accountId={accountId} />
    );
  }
  return (
    <>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {/* A new version of the account (reloaded after a conflict) starts the form again from it. */}
      <AccountEditForm key={account.version} loaded={account} />
    </>
  );
}

/**
 * Edit account (H-01 … H-18). Account scope never edits accounts, whatever its roles; the others need
 * canManageAccount, and a partner only edits the accounts under it.
 */
export function AccountEditPage({ accountId }: { accountId: string }) {
  const profile = useProfile();
  if (profile.access_scope === 'account') return <AccountEditNoAccess reason="scope" accountId={accountId} />;
  return (
    <RequirePermissions flags={['canManageAccount']}>
      <EditableAccount accountId={accountId} />
    </RequirePermissions>
  );
}
