import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import {
  type ServiceUserListQueryInput,
  serviceUserListSchema,
  serviceUserSchema,
} from '../../../contract/schemas/service-users.ts';
import { roleListSchema } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * Service-user queries. Not account-scoped: which service users a caller reaches follows its own
 * scope (decision 018 §3.1).
 */
export const serviceUserKeys = {
  all: () => ['service-users'] as const,
  lists: () => [...serviceUserKeys.all(), 'list'] as const,
  list: (query: ServiceUserListQueryInput) => [...serviceUserKeys.lists(), query] as const,
  detail: (id: string) => [...serviceUserKeys.all(), 'detail', id] as const,
  roleChoices: (accountId: string) => [...serviceUserKeys.all(), 'role-choices', accountId] as const,
};

/** What a change of a service user makes stale; their tokens and certificates are their own domains'. */
export const serviceUsersStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^${UI_API_V1}/service-user(?!/[^/]+/(?:api-tokens|client-auth-certificate))`),
  queryKeys: [serviceUserKeys.all()],
};

export function serviceUserListQueryOptions(query: ServiceUserListQueryInput) {
  return queryOptions({
    queryKey: serviceUserKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.serviceUsers.list, { query, schema: serviceUserListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function serviceUserQueryOptions(id: string) {
  return queryOptions({
    queryKey: serviceUserKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.serviceUsers.byId(id), { schema: serviceUserSchema, signal }),
  });
}

/** The active roles a user of `accountId` may hold: built-in ones and that account's own. */
export function roleChoicesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: serviceUserKeys.roleChoices(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.roles.list, {
        query: { account_id: accountId, status: 'active', sort: 'name:asc', limit: '100' },
        schema: roleListSchema,
        signal,
      }),
  });
}
