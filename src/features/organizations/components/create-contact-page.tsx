import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { notify } from '../../../components/notify.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { useGoBack } from '../../../lib/page-mode.ts';
import { useCreateContact } from '../mutations.ts';
import { organizationQueryOptions } from '../queries.ts';
import { ContactForm } from './contact-fields.tsx';
import { FormPage } from './form-page.tsx';

/** Adds a contact to an organization, then returns to the organization (I-05, I-11). */
export function CreateContactPage({ organizationId }: { organizationId: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { data: organization } = useSuspenseQuery(organizationQueryOptions(organizationId));
  const create = useCreateContact(organization);
  const goBack = useGoBack('create');
  const name = organization.name;

  return (
    <FormPage
      title={<Trans>Add contact</Trans>}
      subtitle={<Trans>Organization: {name}</Trans>}
      onLeave={goBack}
    >
      <ContactForm
        submitLabel={<Trans>Add contact</Trans>}
        onCancel={goBack}
        onSubmit={async (fields) => {
          const created = await create.mutateAsync({ request: fields, idempotencyKey: newIdempotencyKey() });
          notify(
            isQueued(created) ? 'info' : 'success',
            isQueued(created)
              ? t`Saved on this device. The contact is added when the connection returns.`
              : t`Contact created.`,
          );
          await navigate({ to: '/ca/organizations/$id', params: { id: organizationId }, replace: true });
        }}
      />
    </FormPage>
  );
}
