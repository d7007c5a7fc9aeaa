import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { clientToolListSchema } from '../../../contract/schemas/client-tools.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const clientToolKeys = {
  all: () => ['client-tools'] as const,
  list: () => [...clientToolKeys.all(), 'list'] as const,
};

/** The client-tools catalogue: the trust assistant and the tools the operator publishes. */
export function clientToolsQueryOptions() {
  return queryOptions({
    queryKey: clientToolKeys.list(),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.clientTools.list, { schema: clientToolListSchema, signal }),
  });
}
