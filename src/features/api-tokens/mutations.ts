import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenUpdate,
  apiTokenCreatedSchema,
} from '../../../contract/schemas/api-tokens.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiTokenKeys, type TokenOwner, tokenPaths } from './queries.ts';

/*
 * API tokens need the server: a new token's value exists only in its creation answer, and a change of
 * a credential is never queued for later. None is queueable, and each is started from a dialog that
 * shows its own error, so none raises a toast. Mutation results are never persisted
 * (`persistDehydrateOptions` keeps no mutation), so the value lives only in the dialog's state.
 */

export const apiTokenMutationKeys = {
  create: (userId: string) => ['api-tokens', 'create', userId] as const,
  update: (userId: string) => ['api-tokens', 'update', userId] as const,
  revoke: (userId: string) => ['api-tokens', 'revoke', userId] as const,
};

export function useCreateApiToken(owner: TokenOwner) {
  const userId = owner.id;
  return useMutation({
    mutationKey: apiTokenMutationKeys.create(userId),
    meta: { errorToast: false, changes: tokenPaths(owner).list },
    // The answer holds the token: the mutation cache drops it as soon as no dialog shows it.
    gcTime: 0,
    mutationFn: (request: ApiTokenCreate) =>
      apiRequest('POST', tokenPaths(owner).list, { body: request, schema: apiTokenCreatedSchema }),
  });
}

/** PUT on the version the list showed: a change made meanwhile is refused (412), not overwritten. */
export function useUpdateApiToken(owner: TokenOwner) {
  const queryClient = useQueryClient();
  const userId = owner.id;
  return useMutation({
    mutationKey: apiTokenMutationKeys.update(userId),
    meta: { errorToast: false, changes: tokenPaths(owner).list },
    mutationFn: ({ token, update }: { token: ApiToken; update: ApiTokenUpdate }) =>
      apiRequest('PUT', tokenPaths(owner).one(token.id), { body: update, ifMatch: token.version }),
    // Refused because the token moved on meanwhile: the list shows its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(userId) }),
  });
}

export function useRevokeApiToken(owner: TokenOwner) {
  const queryClient = useQueryClient();
  const userId = owner.id;
  return useMutation({
    mutationKey: apiTokenMutationKeys.revoke(userId),
    meta: { errorToast: false, changes: tokenPaths(owner).list },
    mutationFn: (token: ApiToken) => apiRequest('DELETE', tokenPaths(owner).one(token.id)),
    // Refused because the token moved on meanwhile: the list shows its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(userId) }),
  });
}
