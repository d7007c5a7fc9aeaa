import { useLingui } from '@lingui/react/macro';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueuedResponse } from '../../../contract/outbox.ts';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type Contact,
  type ContactFields,
  contactSchema,
  type Organization,
  type OrganizationCreate,
  type OrganizationFields,
  type OrganizationList,
  organizationSchema,
} from '../../../contract/schemas/organizations.ts';
import { useProfile } from '../../lib/current-user.ts';
import { applyToCached } from '../../lib/offline/optimistic.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { apiQueueableRequest, isQueued } from '../../lib/offline/queueable-request.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';
import { organizationKeys } from './queries.ts';

export const organizationMutationKeys = {
  create: ['organizations', 'create'] as const,
  update: ['organizations', 'update'] as const,
  delete: ['organizations', 'delete'] as const,
  createContact: ['organizations', 'contacts', 'create'] as const,
  updateContact: ['organizations', 'contacts', 'update'] as const,
  deleteContact: ['organizations', 'contacts', 'delete'] as const,
};

/*
 * Every mutation here is started from a form or a confirmation dialog that shows its own error, so
 * none of them also raises an error toast.
 *
 * Each is queueable (docs/decisions/013): it carries an Idempotency-Key made when the user acted
 * (`newIdempotencyKey`, kept in the variables so a retry sends the same one), changes and deletions
 * carry the version the screen loaded as If-Match, and offline the service worker keeps the change
 * and answers `{ queued: true }`. Queued changes show on the cached data at once and are marked
 * pending there by their outbox entries.
 */

export interface FieldsChange<TFields> extends Versioned<TFields> {
  fields: TFields;
}

/** What an edit of the organization sends, as `organization` has it: the base of its changes. */
export function organizationFieldsOf(organization: Organization): OrganizationFields {
  const { name, address, address2, city, state, zip_code, country, phone } = organization;
  return { name, address, address2, city, state, zip_code, country, phone };
}

/** What an edit of the contact sends, as `contact` has it: the base of its changes. */
export function contactFieldsOf(contact: Contact): ContactFields {
  const { first_name, last_name, email, phone, title, type } = contact;
  return { first_name, last_name, email, phone, title, type };
}

export interface Creation<TRequest> {
  request: TRequest;
  idempotencyKey: string;
}

/** The signed-in user, whose session alone may send a queued change. */
function useOwner(): string {
  return useProfile().id;
}

function updateListed(queryClient: QueryClient, id: string, fields: OrganizationFields) {
  applyToCached<OrganizationList>(queryClient, { queryKey: organizationKeys.lists() }, (list) => ({
    ...list,
    items: list.items.map((item) => (item.id === id ? { ...item, ...fields } : item)),
  }));
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  return useMutation({
    mutationKey: organizationMutationKeys.create,
    meta: { errorToast: false, changes: apiPaths.organizations.list },
    mutationFn: ({ request, idempotencyKey }: Creation<OrganizationCreate>) => {
      const name = request.name;
      return apiQueueableRequest('POST', apiPaths.organizations.list, {
        body: request,
        schema: organizationSchema,
        queue: {
          idempotencyKey,
          outbox,
          owner,
          accountId: request.account_id,
          summary: t`Create organization ${name}`,
          resource: apiPaths.organizations.list,
        },
      });
    },
    onSuccess: (created) => {
      // Queued: the list shows it as pending from its outbox entry until the server has it.
      if (isQueued(created)) return;
      // The detail page opens next: it can show the answer at once instead of asking again.
      queryClient.setQueryData(organizationKeys.detail(created.id), created);
    },
  });
}

export function useUpdateOrganization(organization: Pick<Organization, 'id' | 'name' | 'account_id'>) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  const { id, name } = organization;
  return useMutation({
    mutationKey: organizationMutationKeys.update,
    meta: { errorToast: false, changes: apiPaths.organizations.byId(id) },
    mutationFn: ({ fields, ...change }: FieldsChange<OrganizationFields>) =>
      sendVersionedChange(
        'PUT',
        apiPaths.organizations.byId(id),
        { ...change, body: fields },
        { outbox, owner, accountId: organization.account_id, summary: t`Edit organization ${name}` },
      ),
    onSuccess: (result, { fields }) => {
      if (isQueued(result)) {
        applyToCached<Organization>(
          queryClient,
          { queryKey: organizationKeys.detail(id), exact: true },
          (old) => ({
            ...old,
            ...fields,
          }),
        );
        updateListed(queryClient, id, fields);
      }
    },
  });
}

/**
 * Deleting also deletes the organization's contacts on the server, so its detail, contacts and
 * contact queries are dropped together. The caller leaves the page in `mutate`'s own `onSuccess`;
 * queries still observed there are not refetched by removal, so nothing asks for what is gone.
 * Queued, the organization stays listed, marked as pending deletion, until the server has it.
 */
export function useDeleteOrganization(organization: Pick<Organization, 'id' | 'name' | 'account_id'>) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  const { id, name } = organization;
  return useMutation<undefined | QueuedResponse, Error, Versioned<OrganizationFields>>({
    mutationKey: organizationMutationKeys.delete,
    meta: { errorToast: false, changes: apiPaths.organizations.byId(id) },
    mutationFn: (change) =>
      sendVersionedChange('DELETE', apiPaths.organizations.byId(id), change, {
        outbox,
        owner,
        accountId: organization.account_id,
        summary: t`Delete organization ${name}`,
      }),
    onSuccess: (result) => {
      if (!isQueued(result)) queryClient.removeQueries({ queryKey: organizationKeys.detail(id) });
    },
  });
}

type ContactParent = Pick<Organization, 'id' | 'name' | 'account_id'>;

export function useCreateContact(organization: ContactParent) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  const organizationId = organization.id;
  const organizationName = organization.name;
  return useMutation({
    mutationKey: organizationMutationKeys.createContact,
    meta: { errorToast: false, changes: apiPaths.organizations.contacts(organizationId) },
    mutationFn: ({ request, idempotencyKey }: Creation<ContactFields>) => {
      const path = apiPaths.organizations.contacts(organizationId);
      const contactName = `${request.first_name} ${request.last_name}`;
      return apiQueueableRequest('POST', path, {
        body: request,
        schema: contactSchema,
        queue: {
          idempotencyKey,
          outbox,
          owner,
          accountId: organization.account_id,
          summary: t`Add contact ${contactName} to ${organizationName}`,
          resource: path,
        },
      });
    },
    onSuccess: (created) => {
      if (!isQueued(created))
        queryClient.setQueryData(organizationKeys.contact(organizationId, created.id), created);
    },
  });
}

export function useUpdateContact(
  organization: ContactParent,
  contact: Pick<Contact, 'id' | 'first_name' | 'last_name'>,
) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  const organizationId = organization.id;
  const contactId = contact.id;
  const contactName = `${contact.first_name} ${contact.last_name}`;
  return useMutation({
    mutationKey: organizationMutationKeys.updateContact,
    meta: { errorToast: false, changes: apiPaths.organizations.contact(organizationId, contactId) },
    mutationFn: ({ fields, ...change }: FieldsChange<ContactFields>) =>
      sendVersionedChange(
        'PUT',
        apiPaths.organizations.contact(organizationId, contactId),
        { ...change, body: fields },
        { outbox, owner, accountId: organization.account_id, summary: t`Edit contact ${contactName}` },
      ),
    onSuccess: (result, { fields }) => {
      if (isQueued(result)) {
        const edited = (old: Contact): Contact => ({ ...old, ...fields });
        applyToCached(
          queryClient,
          { queryKey: organizationKeys.contact(organizationId, contactId), exact: true },
          edited,
        );
        applyToCached<{ items: Contact[]; total: number }>(
          queryClient,
          { queryKey: organizationKeys.contacts(organizationId), exact: true },
          (list) => ({
            ...list,
            items: list.items.map((item) => (item.id === contactId ? edited(item) : item)),
          }),
        );
      }
    },
  });
}

export function useDeleteContact(
  organization: ContactParent,
  contact: Pick<Contact, 'id' | 'first_name' | 'last_name'>,
) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const owner = useOwner();
  const outbox = useOutbox();
  const organizationId = organization.id;
  const contactId = contact.id;
  const contactName = `${contact.first_name} ${contact.last_name}`;
  return useMutation<undefined | QueuedResponse, Error, Versioned<ContactFields>>({
    mutationKey: organizationMutationKeys.deleteContact,
    meta: { errorToast: false, changes: apiPaths.organizations.contact(organizationId, contactId) },
    mutationFn: (change) =>
      sendVersionedChange('DELETE', apiPaths.organizations.contact(organizationId, contactId), change, {
        outbox,
        owner,
        accountId: organization.account_id,
        summary: t`Delete contact ${contactName}`,
      }),
    onSuccess: (result) => {
      if (!isQueued(result))
        queryClient.removeQueries({ queryKey: organizationKeys.contact(organizationId, contactId) });
    },
  });
}
