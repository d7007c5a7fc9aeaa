import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type TenantCreate,
  type TenantUpdate,
  tenantSchema,
  type UNLINK_CONFIRMATION_WORD,
} from '../../../contract/schemas/tenants.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { accountKeys, accountQueryOptions } from './queries.ts';

export const accountMutationKeys = {
  create: () => ['accounts', 'create'] as const,
  update: (id: string) => ['accounts', 'update', id] as const,
  delete: (id: string) => ['accounts', 'delete', id] as const,
  unlink: (id: string) => ['accounts', 'unlink', id] as const,
};

/**
 * What a change of account data makes stale besides the account itself: the accounts lists, the
 * expiry counts of the list banners, and the profile (its account switcher shows names and end dates).
 */
function invalidateAccountOverviews(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: accountKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: accountKeys.expiring() }),
    queryClient.invalidateQueries({ queryKey: currentUserKeys.profile() }),
  ]);
}

/**
 * PUT tenant/{id} (H-15), on the version of the account the form was filled from: a change made by
 * someone else in the meantime is refused (412) rather than overwritten. The edit form shows its own
 * error alert, so no toast.
 */
export function useUpdateAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.update(id),
    meta: { errorToast: false },
    mutationFn: ({ update, version }: { update: TenantUpdate; version: number }) =>
      apiRequest('PUT', apiPaths.tenants.byId(id), { body: update, ifMatch: version }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.detail(id) }),
        invalidateAccountOverviews(queryClient),
      ]),
  });
}

/** POST tenants: the new account with its first administrator; answers the created account. */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.create(),
    meta: { errorToast: false },
    mutationFn: (request: TenantCreate) =>
      apiRequest('POST', apiPaths.tenants.list, { body: request, schema: tenantSchema }),
    onSuccess: (created) => {
      // The details page opens next; it shows what the server answered without asking again.
      queryClient.setQueryData(accountQueryOptions(created.id).queryKey, created);
      return invalidateAccountOverviews(queryClient);
    },
  });
}

/** DELETE tenants?ids=<id> (H-24). The confirmation dialog shows a failure itself. */
export function useDeleteAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.delete(id),
    meta: { errorToast: false },
    mutationFn: () => apiRequest('DELETE', apiPaths.tenants.list, { query: { ids: id } }),
    onSuccess: () => {
      // Dropped rather than invalidated: refetching a deleted account could only answer 404.
      queryClient.removeQueries({ queryKey: accountKeys.detail(id) });
      return invalidateAccountOverviews(queryClient);
    },
  });
}

/**
 * POST tenant/{id}/unlink with the word the user typed. Resolves once the account has been fetched
 * again, so the page never shows the link after the success banner.
 */
export function useUnlinkAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.unlink(id),
    meta: { errorToast: false },
    mutationFn: (confirmation: typeof UNLINK_CONFIRMATION_WORD) =>
      apiRequest('POST', apiPaths.tenants.unlink(id), { body: { confirmation } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.lists() }),
      ]),
  });
}
