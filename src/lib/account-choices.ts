import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../contract/paths.ts';
import { ALL_ITEMS_LIMIT } from '../../contract/schemas/common.ts';
import { tenantListSchema } from '../../contract/schemas/tenants.ts';
import { apiRequest } from './api-client.ts';

/**
 * The accounts the viewer reaches, by name, for an account filter or an account field. Something new
 * is made only in an active account; lists of what already exists (certificates) also offer inactive
 * ones, whose objects stay.
 */
export function accountChoicesQueryOptions({ includeInactive = false } = {}) {
  return queryOptions({
    queryKey: ['account-choices', includeInactive ? 'all' : 'active'] as const,
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.list, {
        query: {
          ...(includeInactive ? {} : { active: 'true' }),
          sort: 'name:asc',
          limit: String(ALL_ITEMS_LIMIT),
        },
        schema: tenantListSchema,
        signal,
      }),
  });
}
