import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { organizationFieldsSchema } from '../../../../contract/schemas/organizations.ts';
import { showToast } from '../../../components/ui/toast.tsx';
import { useGoBack } from '../../../lib/page-mode.ts';
import { useCreateOrganization, useUpdateOrganization } from '../mutations.ts';
import { organizationQueryOptions } from '../queries.ts';
import { FormPage } from './form-page.tsx';
import { OrganizationFields } from './organization-fields.tsx';

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
      schema={organizationFieldsSchema}
      submitLabel={<Trans>Create organization</Trans>}
      onSubmit={async (fields) => {
        const created = await create.mutateAsync({ ...fields, account_id: accountId });
        showToast('success', t`Organization created.`);
        // Replaces the form in the history: Back from the new organization does not reopen an empty form.
        await navigate({ to: '/ca/organizations/$id', params: { id: created.id }, replace: true });
      }}
    >
      {(bindings) => <OrganizationFields bindings={bindings} />}
    </FormPage>
  );
}

/** Edits an organization, then returns to it (I-04, I-10, I-14). */
export function EditOrganizationPage({ organizationId }: { organizationId: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { data: organization } = useSuspenseQuery(organizationQueryOptions(organizationId));
  const update = useUpdateOrganization(organizationId);
  const goBack = useGoBack('edit');
  const name = organization.name;

  return (
    <FormPage
      title={<Trans>Edit organization</Trans>}
      subtitle={<Trans>Organization: {name}</Trans>}
      onLeave={goBack}
      schema={organizationFieldsSchema}
      submitLabel={<Trans>Save changes</Trans>}
      onSubmit={async (fields) => {
        await update.mutateAsync(fields);
        showToast('success', t`Organization edited.`);
        await navigate({ to: '/ca/organizations/$id', params: { id: organizationId }, replace: true });
      }}
    >
      {(bindings) => <OrganizationFields bindings={bindings} initial={organization} />}
    </FormPage>
  );
}
