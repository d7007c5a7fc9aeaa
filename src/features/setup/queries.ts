import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { setupStatusSchema } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const setupKeys = {
  status: () => ['setup', 'status'] as const,
};

export function setupStatusQueryOptions() {
  return queryOptions({
    queryKey: setupKeys.status(),
    queryFn: ({ signal }) => apiRequest('GET', apiPaths.setup.status, { schema: setupStatusSchema, signal }),
    staleTime: 0,
  });
}
