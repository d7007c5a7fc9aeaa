import { queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import { apiTokenListSchema } from '../../../contract/schemas/api-tokens.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * Whose tokens: a person's (`user/{id}/api-tokens`) or a service user's
 * (`service-user/{id}/api-tokens`, managed by whoever may change it; decision 035 §3).
 */
export interface TokenOwner {
  kind: 'person' | 'service';
  id: string;
}

/** The token paths of `owner`. */
export function tokenPaths(owner: TokenOwner) {
  const paths = owner.kind === 'service' ? apiPaths.serviceUsers : apiPaths.users;
  return {
    list: paths.apiTokens(owner.id),
    one: (tokenId: string) => paths.apiToken(owner.id, tokenId),
  };
}

/** A user's API tokens. The list never holds a token's value: only the creation answer does. */
export const apiTokenKeys = {
  all: () => ['api-tokens'] as const,
  list: (userId: string) => [...apiTokenKeys.all(), userId] as const,
};

/** What a change of a user's or a service user's API token makes stale. */
export const apiTokensStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^${UI_API_V1}/(?:service-)?user/[^/]+/api-tokens`),
  queryKeys: [apiTokenKeys.all()],
};

export function apiTokenListQueryOptions(owner: TokenOwner) {
  return queryOptions({
    queryKey: apiTokenKeys.list(owner.id),
    queryFn: ({ signal }) =>
      apiRequest('GET', tokenPaths(owner).list, {
        query: { status: 'active', limit: '100' },
        schema: apiTokenListSchema,
        signal,
      }),
  });
}
