import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { apiTokenListSchema } from '../../../contract/schemas/api-tokens.ts';
import { apiRequest } from '../../lib/api-client.ts';

/** A user's API tokens. The list never holds a token's value: only the creation answer does. */
export const apiTokenKeys = {
  all: () => ['api-tokens'] as const,
  list: (userId: string) => [...apiTokenKeys.all(), userId] as const,
};

export function apiTokenListQueryOptions(userId: string) {
  return queryOptions({
    queryKey: apiTokenKeys.list(userId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.apiTokens(userId), {
        query: { status: 'active', limit: '100' },
        schema: apiTokenListSchema,
        signal,
      }),
  });
}
