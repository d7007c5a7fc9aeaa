import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { type Contact, contactFieldsSchema } from '../../../../contract/schemas/organizations.ts';
import { BackButton } from '../../../components/back-button.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useDeleteContact, useUpdateContact } from '../mutations.ts';
import { contactQueryOptions, organizationQueryOptions } from '../queries.ts';
import { CONTACT_TYPE_LABELS, ContactFields } from './contact-fields.tsx';
import { DeleteAction } from './delete-action.tsx';
import { DetailList } from './detail-list.tsx';
import { PageHeading } from './page-heading.tsx';
import { ValidatedForm } from './validated-form.tsx';

function DeleteContact({ contact, name }: { contact: Contact; name: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const remove = useDeleteContact(contact.organization_id, contact.id);
  return (
    <DeleteAction
      label={<Trans>Delete contact</Trans>}
      title={<Trans>Delete contact</Trans>}
      warning={<Trans>The contact {name} will be deleted. This cannot be undone.</Trans>}
      confirmLabel={<Trans>Delete contact</Trans>}
      mutation={remove}
      onDeleted={() => {
        showToast('success', t`Contact deleted.`);
        void navigate({
          to: '/ca/organizations/$id',
          params: { id: contact.organization_id },
          replace: true,
        });
      }}
    />
  );
}

function EditContactForm({ contact, onDone }: { contact: Contact; onDone: () => void }) {
  const { t } = useLingui();
  const update = useUpdateContact(contact.organization_id, contact.id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form replaces the details under the user's focus: start them at its heading.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="organizations-section" aria-labelledby="edit-contact-title">
      <h2 id="edit-contact-title" tabIndex={-1} ref={headingRef}>
        <Trans>Edit contact</Trans>
      </h2>
      <ValidatedForm
        schema={contactFieldsSchema}
        submitLabel={<Trans>Save changes</Trans>}
        onCancel={onDone}
        onSubmit={async (fields) => {
          await update.mutateAsync(fields);
          showToast('success', t`Contact updated.`);
          onDone();
        }}
      >
        {(bindings) => <ContactFields bindings={bindings} initial={contact} />}
      </ValidatedForm>
    </section>
  );
}

/** One contact of an organization (I-06), edited in place and deleted with a confirmation. */
export function ContactDetailPage({
  organizationId,
  contactId,
}: {
  organizationId: string;
  contactId: string;
}) {
  const { i18n } = useLingui();
  const canManage = usePermissionFlags().canManageOrganization;
  const { data: organization } = useSuspenseQuery(organizationQueryOptions(organizationId));
  const { data: contact } = useSuspenseQuery(contactQueryOptions(organizationId, contactId));
  const [editing, setEditing] = useState(false);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  // After saving or cancelling, focus goes back to the Edit button the user started from.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButtonRef.current?.focus();
  }, [editing]);

  const fullName = `${contact.first_name} ${contact.last_name}`;
  const organizationName = organization.name;
  return (
    <section className="page" aria-labelledby="page-title">
      <BackButton />
      <PageHeading
        title={fullName}
        subtitle={
          <Trans>
            Contact of{' '}
            <Link to="/ca/organizations/$id" params={{ id: organizationId }}>
              {organizationName}
            </Link>
          </Trans>
        }
        actions={
          canManage && !editing ? (
            <>
              <Button ref={editButtonRef} onClick={() => setEditing(true)}>
                <Trans>Edit contact</Trans>
              </Button>
              <DeleteContact contact={contact} name={fullName} />
            </>
          ) : null
        }
      />
      {editing ? (
        <EditContactForm
          contact={contact}
          onDone={() => {
            returnFocus.current = true;
            setEditing(false);
          }}
        />
      ) : (
        <DetailList
          rows={[
            { label: <Trans>First name</Trans>, value: contact.first_name },
            { label: <Trans>Last name</Trans>, value: contact.last_name },
            {
              label: <Trans>Email</Trans>,
              value: <a href={`mailto:${contact.email}`}>{contact.email}</a>,
            },
            { label: <Trans>Phone</Trans>, value: contact.phone },
            { label: <Trans>Title</Trans>, value: contact.title },
            { label: <Trans>Type</Trans>, value: i18n._(CONTACT_TYPE_LABELS[contact.type]) },
          ]}
        />
      )}
    </section>
  );
}
