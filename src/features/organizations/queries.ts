import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import {
  contactListSchema,
  contactSchema,
  type OrganizationListQueryInput,
  organizationListSchema,
  organizationSchema,
} from '../../../contract/schemas/organizations.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

export const organizationKeys = {
  all: () => ['organizations'] as const,
  lists: () => [...organizationKeys.all(), 'list'] as const,
  list: (query: OrganizationListQueryInput) => [...organizationKeys.lists(), query] as const,
  detail: (id: string) => [...organizationKeys.all(), 'detail', id] as const,
  contacts: (id: string) => [...organizationKeys.detail(id), 'contacts'] as const,
  contact: (id: string, contactId: string) => [...organizationKeys.contacts(id), contactId] as const,
};

/** What a change of an organization or a contact makes stale. */
export const organizationsStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/organizations`,
  queryKeys: [organizationKeys.all()],
};

export function organizationListQueryOptions(query: OrganizationListQueryInput) {
  return queryOptions({
    queryKey: organizationKeys.list(query),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.organizations.list, { query, schema: organizationListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function organizationQueryOptions(id: string) {
  return queryOptions({
    queryKey: organizationKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.organizations.byId(id), { schema: organizationSchema, signal }),
  });
}

export function contactListQueryOptions(id: string) {
  return queryOptions({
    queryKey: organizationKeys.contacts(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.organizations.contacts(id), {
        query: { limit: 99_999 },
        schema: contactListSchema,
        signal,
      }),
  });
}

export function contactQueryOptions(id: string, contactId: string) {
  return queryOptions({
    queryKey: organizationKeys.contact(id, contactId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.organizations.contact(id, contactId), { schema: contactSchema, signal }),
  });
}
