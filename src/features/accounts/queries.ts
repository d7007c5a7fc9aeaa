import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  expiringTenantsSchema,
  type TenantListQueryInput,
  tenantListSchema,
  tenantSchema,
} from '../../../contract/schemas/tenants.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';

/** Account queries. Not account-scoped: the accounts list is the same whichever account is selected. */
export const accountKeys = {
  all: () => ['accounts'] as const,
  lists: () => [...accountKeys.all(), 'list'] as const,
  list: (query: TenantListQueryInput) => [...accountKeys.lists(), query] as const,
  expiring: () => [...accountKeys.all(), 'expiring'] as const,
  detail: (id: string) => [...accountKeys.all(), 'detail', id] as const,
};

// A queued change of an account reaching the server (tenant/{id}, tenants) makes the accounts and the
// profile's account names stale, as the same change made online does.

export function accountListQueryOptions(query: TenantListQueryInput) {
  return queryOptions({
    queryKey: accountKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.tenants.list, { query, schema: tenantListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function expiringAccountsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.expiring(),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.expiring, { schema: expiringTenantsSchema, signal }),
  });
}

export function accountQueryOptions(id: string) {
  return queryOptions({
    queryKey: accountKeys.detail(id),
    queryFn: ({ signal }) => apiRequest('GET', apiPaths.tenants.byId(id), { schema: tenantSchema, signal }),
  });
}
