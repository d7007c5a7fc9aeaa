import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import type { Contact, Organization } from '../../../../contract/schemas/organizations.ts';
import { BackButton } from '../../../components/back-button.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { notify } from '../../../components/notify.ts';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { screenDataOf } from '../../../lib/query-client.ts';
import { contactFieldsOf, useDeleteContact, useUpdateContact } from '../mutations.ts';
import { contactQueryOptions, organizationKeys, organizationQueryOptions } from '../queries.ts';
import { CONTACT_TYPE_LABELS, ContactForm } from './contact-fields.tsx';
import { DeleteAction } from './delete-action.tsx';
import { DetailList } from './detail-list.tsx';
import { PageHeading } from './page-heading.tsx';

interface ContactActionProps {
  organization: Organization;
  contact: Contact;
  /** Loads the contact's current version after a conflict. */
  onReload: () => void;
}

function DeleteContact({ organization, contact, name, onReload }: ContactActionProps & { name: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const remove = useDeleteContact(organization, contact);
  return (
    <DeleteAction
      label={<Trans>Delete contact</Trans>}
      title={<Trans>Delete contact</Trans>}
      warning={<Trans>The contact {name} will be deleted. This cannot be undone.</Trans>}
      confirmLabel={<Trans>Delete contact</Trans>}
      mutation={remove}
      version={contact.version}
      base={contactFieldsOf(contact)}
      onReload={onReload}
      onDeleted={(queued) => {
        notify(
          queued ? 'info' : 'success',
          queued
            ? t`Saved on this device. The contact is deleted when the connection returns.`
            : t`Contact deleted.`,
        );
        void navigate({
          to: '/ca/organizations/$id',
          params: { id: contact.organization_id },
          replace: true,
        });
      }}
    />
  );
}

function EditContactForm({
  organization,
  contact,
  onReload,
  onDone,
}: ContactActionProps & { onDone: () => void }) {
  const { t } = useLingui();
  // What the form shows and what its change is based on: the contact as it was when the form opened,
  // even if the cached one changes meanwhile, so a change never claims to build on values never shown.
  const [shown] = useState(contact);
  const update = useUpdateContact(organization, shown);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form replaces the details under the user's focus: start them at its heading.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="organizations-section" aria-labelledby="edit-contact-title">
      <h2 id="edit-contact-title" tabIndex={-1} ref={headingRef}>
        <Trans>Edit contact</Trans>
      </h2>
      <ContactForm
        initial={shown}
        submitLabel={<Trans>Save changes</Trans>}
        onCancel={onDone}
        onReload={onReload}
        onSubmit={async (fields) => {
          const result = await update.mutateAsync({
            fields,
            version: shown.version,
            base: contactFieldsOf(shown),
            idempotencyKey: newIdempotencyKey(),
          });
          notify(
            isQueued(result) ? 'info' : 'success',
            isQueued(result)
              ? t`Saved on this device. The change is sent when the connection returns.`
              : t`Contact updated.`,
          );
          onDone();
        }}
      />
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
  const queryClient = useQueryClient();
  const canManage = usePermissionFlags().canManageOrganization;
  const { data: organization, dataUpdatedAt: organizationUpdatedAt } = useSuspenseQuery(
    organizationQueryOptions(organizationId),
  );
  const { data: contact, dataUpdatedAt } = useSuspenseQuery(contactQueryOptions(organizationId, contactId));
  const pending = entriesFor(useOutboxEntries(), apiPaths.organizations.contact(organizationId, contactId));
  const reload = () =>
    void queryClient.invalidateQueries({
      queryKey: organizationKeys.contact(organizationId, contactId),
      exact: true,
    });
  const [editing, setEditing] = useState(false);
  const [opening, setOpening] = useState(false);
  // Like the edit pages' loaders: online the form starts from the version the server has now, so a
  // colleague's save since this page loaded does not make Save fail with 412; offline, the cached one.
  const openEditor = async () => {
    setOpening(true);
    await screenDataOf(queryClient).preloadCurrent(contactQueryOptions(organizationId, contactId));
    setOpening(false);
    setEditing(true);
  };
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
      <CachedDataNotice updatedAt={[dataUpdatedAt, organizationUpdatedAt]} />
      <PageHeading
        title={
          <>
            {fullName}
            <PendingSyncBadge entries={pending} />
          </>
        }
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
              <Button ref={editButtonRef} aria-busy={opening} onClick={() => void openEditor()}>
                <Trans>Edit contact</Trans>
              </Button>
              <DeleteContact
                organization={organization}
                contact={contact}
                name={fullName}
                onReload={reload}
              />
            </>
          ) : null
        }
      />
      {editing ? (
        <EditContactForm
          key={contact.version}
          organization={organization}
          contact={contact}
          onReload={reload}
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
