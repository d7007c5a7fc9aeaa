import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import type { ContactFields, Organization } from '../../../../contract/schemas/organizations.ts';
import { BackButton } from '../../../components/back-button.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { useCountryName } from '../../../components/country-select.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { notify } from '../../../components/notify.ts';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { useActiveAccountId } from '../../../lib/current-user.ts';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { organizationFieldsOf, useDeleteOrganization } from '../mutations.ts';
import { contactListQueryOptions, organizationKeys, organizationQueryOptions } from '../queries.ts';
import { CONTACT_TYPE_LABELS } from './contact-fields.tsx';
import { DeleteAction } from './delete-action.tsx';
import { DetailList } from './detail-list.tsx';
import { PageHeading } from './page-heading.tsx';

function DeleteOrganization({ organization }: { organization: Organization }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const activeAccountId = useActiveAccountId();
  const queryClient = useQueryClient();
  const remove = useDeleteOrganization(organization);
  const name = organization.name;
  // Back to the list of the account the organization was in, which need not be the selected one.
  const listAccountId = organization.account_id === activeAccountId ? undefined : organization.account_id;
  return (
    <DeleteAction
      label={<Trans>Delete organization</Trans>}
      title={<Trans>Delete organization</Trans>}
      warning={
        <Trans>The organization {name} and all its contacts will be deleted. This cannot be undone.</Trans>
      }
      confirmLabel={<Trans>Delete organization</Trans>}
      mutation={remove}
      version={organization.version}
      base={organizationFieldsOf(organization)}
      onReload={() =>
        void queryClient.invalidateQueries({
          queryKey: organizationKeys.detail(organization.id),
          exact: true,
        })
      }
      onDeleted={(queued) => {
        notify(
          queued ? 'info' : 'success',
          queued
            ? t`Saved on this device. The organization is deleted when the connection returns.`
            : t`Organization deleted.`,
        );
        void navigate({ to: '/ca/organizations', search: { accountId: listAccountId }, replace: true });
      }}
    />
  );
}

/** The fields of a contact a queued creation sends, when its body has them. */
function queuedContact(entry: OutboxEntryView): Partial<ContactFields> {
  return typeof entry.body === 'object' && entry.body !== null ? (entry.body as Partial<ContactFields>) : {};
}

function ContactsSection({
  organizationId,
  canManage,
  queued,
}: {
  organizationId: string;
  canManage: boolean;
  /** The signed-in user's outbox, for contacts with changes not on the server yet. */
  queued: readonly OutboxEntryView[];
}) {
  const { t, i18n } = useLingui();
  const { data: contacts } = useSuspenseQuery(contactListQueryOptions(organizationId));
  // Contacts added offline: not on the server yet, shown from their outbox entries until they are.
  const added = entriesFor(queued, apiPaths.organizations.contacts(organizationId), 'POST');
  return (
    <section className="organizations-section" aria-labelledby="contacts-title">
      <div className="organizations-heading">
        <h2 id="contacts-title">
          <Trans>Contacts</Trans>
        </h2>
        {canManage ? (
          <Link
            to="/ca/organizations/$id/create-contact"
            params={{ id: organizationId }}
            className="button button--secondary"
          >
            <Trans>Add contact</Trans>
          </Link>
        ) : null}
      </div>
      {contacts.items.length === 0 && added.length === 0 ? (
        <div className="empty-state">
          <p>
            <Trans>This organization has no contacts yet.</Trans>
          </p>
        </div>
      ) : (
        <TableFrame label={t`Contacts table`}>
          <table className="list-table organizations-table" aria-labelledby="contacts-title">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Name</Trans>
                </th>
                <th scope="col">
                  <Trans>Type</Trans>
                </th>
                <th scope="col">
                  <Trans>Title</Trans>
                </th>
                <th scope="col">
                  <Trans>Email</Trans>
                </th>
                <th scope="col">
                  <Trans>Phone</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {added.map((entry) => {
                const contact = queuedContact(entry);
                return (
                  <tr key={entry.id}>
                    <th scope="row">
                      <TruncatedText
                        text={
                          `${contact.first_name ?? ''} ${contact.last_name ?? ''}`.trim() || entry.summary
                        }
                      />
                      <PendingSyncBadge entries={[entry]} />
                    </th>
                    <td>
                      {contact.type && contact.type in CONTACT_TYPE_LABELS
                        ? i18n._(CONTACT_TYPE_LABELS[contact.type])
                        : null}
                    </td>
                    <td>
                      <TruncatedText text={contact.title} />
                    </td>
                    <td>
                      <TruncatedText text={contact.email} />
                    </td>
                    <td>{contact.phone}</td>
                  </tr>
                );
              })}
              {contacts.items.map((contact) => (
                <tr key={contact.id}>
                  <th scope="row">
                    <Link
                      to="/ca/organizations/$id/$contactId"
                      params={{ id: organizationId, contactId: contact.id }}
                    >
                      <TruncatedText text={`${contact.first_name} ${contact.last_name}`} />
                    </Link>
                    <PendingSyncBadge
                      entries={entriesFor(queued, apiPaths.organizations.contact(organizationId, contact.id))}
                    />
                  </th>
                  <td>{i18n._(CONTACT_TYPE_LABELS[contact.type])}</td>
                  <td>
                    <TruncatedText text={contact.title} />
                  </td>
                  <td>
                    <a href={`mailto:${contact.email}`}>
                      <TruncatedText text={contact.email} />
                    </a>
                  </td>
                  <td>{contact.phone}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </section>
  );
}

/** One organization with its contacts (I-03, I-11); editing and deleting need manage permission. */
export function OrganizationDetailPage({ organizationId }: { organizationId: string }) {
  const countryName = useCountryName();
  const canManage = usePermissionFlags().canManageOrganization;
  const { data: organization, dataUpdatedAt } = useSuspenseQuery(organizationQueryOptions(organizationId));
  const contactsUpdatedAt = useSuspenseQuery(contactListQueryOptions(organizationId)).dataUpdatedAt;
  const queued = useOutboxEntries();
  return (
    <section className="page" aria-labelledby="page-title">
      <BackButton />
      <CachedDataNotice updatedAt={[dataUpdatedAt, contactsUpdatedAt]} />
      <PageHeading
        title={
          <>
            {organization.name}
            <PendingSyncBadge entries={entriesFor(queued, apiPaths.organizations.byId(organizationId))} />
          </>
        }
        subtitle={<Trans>Organization</Trans>}
        actions={
          canManage ? (
            <>
              <Link
                to="/ca/organizations/$id/edit"
                params={{ id: organizationId }}
                className="button button--primary"
              >
                <Trans>Edit organization</Trans>
              </Link>
              <DeleteOrganization organization={organization} />
            </>
          ) : null
        }
      />
      <DetailList
        rows={[
          { label: <Trans>Address</Trans>, value: organization.address },
          { label: <Trans>Address 2</Trans>, value: organization.address2 },
          { label: <Trans>City</Trans>, value: organization.city },
          { label: <Trans>State or province</Trans>, value: organization.state },
          { label: <Trans>Zip code</Trans>, value: organization.zip_code },
          { label: <Trans>Country</Trans>, value: countryName(organization.country) },
          { label: <Trans>Phone</Trans>, value: organization.phone },
        ]}
      />
      <ContactsSection organizationId={organizationId} canManage={canManage} queued={queued} />
    </section>
  );
}
