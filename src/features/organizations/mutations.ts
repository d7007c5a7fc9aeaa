import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type ContactFields,
  contactSchema,
  type OrganizationCreate,
  type OrganizationFields,
  organizationSchema,
} from '../../../contract/schemas/organizations.ts';
import { apiRequest } from '../../lib/api-client.ts';
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
 */

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.create,
    meta: { errorToast: false },
    mutationFn: (request: OrganizationCreate) =>
      apiRequest('POST', apiPaths.organizations.list, { body: request, schema: organizationSchema }),
    onSuccess: (created) => {
      // The detail page opens next: it can show the answer at once instead of asking again.
      queryClient.setQueryData(organizationKeys.detail(created.id), created);
      return queryClient.invalidateQueries({ queryKey: organizationKeys.lists() });
    },
  });
}

export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.update,
    meta: { errorToast: false },
    mutationFn: (fields: OrganizationFields) =>
      apiRequest('PUT', apiPaths.organizations.byId(id), { body: fields }),
    onSuccess: () =>
      Promise.all([
        // Exact: the organization's contacts did not change.
        queryClient.invalidateQueries({ queryKey: organizationKeys.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: organizationKeys.lists() }),
      ]),
  });
}

/**
 * Deleting also deletes the organization's contacts on the server, so its detail, contacts and
 * contact queries are dropped together. The caller leaves the page in `mutate`'s own `onSuccess`;
 * queries still observed there are not refetched by removal, so nothing asks for what is gone.
 */
export function useDeleteOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.delete,
    meta: { errorToast: false },
    mutationFn: () => apiRequest('DELETE', apiPaths.organizations.byId(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: organizationKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: organizationKeys.lists() });
    },
  });
}

/** A contact changes the organization's contact count, which its detail and the lists show. */
function invalidateContactsOf(queryClient: ReturnType<typeof useQueryClient>, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationKeys.contacts(organizationId), exact: true }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.detail(organizationId), exact: true }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.lists() }),
  ]);
}

export function useCreateContact(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.createContact,
    meta: { errorToast: false },
    mutationFn: (fields: ContactFields) =>
      apiRequest('POST', apiPaths.organizations.contacts(organizationId), {
        body: fields,
        schema: contactSchema,
      }),
    onSuccess: (created) => {
      queryClient.setQueryData(organizationKeys.contact(organizationId, created.id), created);
      return invalidateContactsOf(queryClient, organizationId);
    },
  });
}

export function useUpdateContact(organizationId: string, contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.updateContact,
    meta: { errorToast: false },
    mutationFn: (fields: ContactFields) =>
      apiRequest('PUT', apiPaths.organizations.contact(organizationId, contactId), { body: fields }),
    // The contact and the organization's contacts table show what changed; the count did not.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.contacts(organizationId) }),
  });
}

export function useDeleteContact(organizationId: string, contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: organizationMutationKeys.deleteContact,
    meta: { errorToast: false },
    mutationFn: () => apiRequest('DELETE', apiPaths.organizations.contact(organizationId, contactId)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: organizationKeys.contact(organizationId, contactId) });
      return invalidateContactsOf(queryClient, organizationId);
    },
  });
}
