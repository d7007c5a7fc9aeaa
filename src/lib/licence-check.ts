import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../contract/paths.ts';
import { licenceCheckSchema } from '../../contract/schemas/licence.ts';
import { apiRequest } from './api-client.ts';

/** GET license/status. Never served from cache: it decides where sign-in and setup lead. */
export function licenceCheckQueryOptions() {
  return queryOptions({
    queryKey: ['licence-check'] as const,
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.licence.status, { schema: licenceCheckSchema, signal }),
    staleTime: 0,
  });
}
