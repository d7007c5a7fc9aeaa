import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import {
  expiringTenantsSchema,
  type TenantListQueryInput,
  tenantListSchema,
  tenantSchema,
} from '../../../contract/schemas/tenants.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/** Account queries. Not account-scoped: the accounts list is the same whichever account is selected. */
export const accountKeys = {
  all: () => ['accounts'] as const,
  lists: () => [...accountKeys.all(), 'list'] as const,
  list: (query: TenantListQueryInput) => [...accountKeys.lists(), query] as const,
  expiring: () => [...accountKeys.all(), 'expiring'] as const,
  detail: (id: string) => [...accountKeys.all(), 'detail', id] as const,
};

/**
 * What a change of an account (tenant/{id}, tenants) makes stale: the accounts, their lists and expiry
 * counts, and the profile, whose account switcher shows their names and end dates.
 */
export const accountsStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/tenant`,
  queryKeys: [accountKeys.all(), currentUserKeys.profile()],
};

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
