import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Organization } from '../../../../contract/schemas/organizations.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { notify } from '../../../components/notify.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { useGoBack } from '../../../lib/page-mode.ts';
import { organizationFieldsOf, useCreateOrganization, useUpdateOrganization } from '../mutations.ts';
import { organizationKeys, organizationQueryOptions } from '../queries.ts';
import { FormPage } from './form-page.tsx';
import { OrganizationForm } from './organization-fields.tsx';

interface CreateOrganizationPageProps {
  /** The account the organization is created in: the list's account. */
  accountId: string;
  accountName: string;
  /** Set when the list was opened for a named account, so leaving returns to that account's list. */
  listAccountId: string | undefined;
}

/** Creates an organization in the list's account, then opens it (I-02, I-09, I-13). */
export function CreateOrganizationPage({
  accountId,
  accountName,
  listAccountId,
}: CreateOrganizationPageProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  // The parent page, as Back on a create page at step 1 goes (overview §2), with the list's account kept.
  const toList = () => void navigate({ to: '/ca/organizations', search: { accountId: listAccountId } });

  return (
    <FormPage
      title={<Trans>Create organization</Trans>}
      subtitle={<Trans>Account: {accountName}</Trans>}
      onLeave={toList}
    >
      <OrganizationForm
        submitLabel={<Trans>Create organization</Trans>}
        onCancel={toList}
        onSubmit={async (fields) => {
          const created = await create.mutateAsync({
            request: { ...fields, account_id: accountId },
            idempotencyKey: newIdempotencyKey(),
          });
          if (isQueued(created)) {
            // Not on the server yet, so it has no page: the list shows it as pending meanwhile.
            notify('info', t`Saved on this device. The organization is created when the connection returns.`);
            await navigate({ to: '/ca/organizations', search: { accountId: listAccountId }, replace: true });
            return;
          }
          notify('success', t`Organization created.`);
          // Replaces the form in the history: Back from the new organization does not reopen an empty form.
          await navigate({ to: '/ca/organizations/$id', params: { id: created.id }, replace: true });
        }}
      />
    </FormPage>
  );
}

/** Edits an organization, then returns to it (I-04, I-10, I-14). */
export function EditOrganizationPage({ organizationId }: { organizationId: string }) {
  const { data: organization, dataUpdatedAt } = useSuspenseQuery(organizationQueryOptions(organizationId));
  return (
    <>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {/* A new version of the organization (reloaded after a conflict) starts the form again from it. */}
      <EditOrganizationForm key={organization.version} loaded={organization} />
    </>
  );
}

function EditOrganizationForm({ loaded }: { loaded: Organization }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // What the form shows and what its change is based on: the organization as it was when the form
  // opened, even if the cached one changes meanwhile, so a change never claims to build on values
  // its user was never shown.
  const [organization] = useState(loaded);
  const update = useUpdateOrganization(organization);
  const goBack = useGoBack('edit');
  const { id, name } = organization;

  return (
    <FormPage
      title={<Trans>Edit organization</Trans>}
      subtitle={<Trans>Organization: {name}</Trans>}
      onLeave={goBack}
    >
      <OrganizationForm
        initial={organization}
        submitLabel={<Trans>Save changes</Trans>}
        onCancel={goBack}
        onReload={() =>
          void queryClient.invalidateQueries({ queryKey: organizationKeys.detail(id), exact: true })
        }
        onSubmit={async (fields) => {
          const result = await update.mutateAsync({
            fields,
            version: organization.version,
            base: organizationFieldsOf(organization),
            idempotencyKey: newIdempotencyKey(),
          });
          notify(
            isQueued(result) ? 'info' : 'success',
            isQueued(result)
              ? t`Saved on this device. The change is sent when the connection returns.`
              : t`Organization edited.`,
          );
          await navigate({ to: '/ca/organizations/$id', params: { id }, replace: true });
        }}
      />
    </FormPage>
  );
}
