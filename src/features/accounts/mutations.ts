import { useLingui } from '@lingui/react/macro';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type Tenant,
  type TenantCreate,
  type TenantList,
  type TenantSummary,
  type TenantUpdate,
  tenantSchema,
  type UNLINK_CONFIRMATION_WORD,
} from '../../../contract/schemas/tenants.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { useProfile } from '../../lib/current-user.ts';
import { applyToCached } from '../../lib/offline/optimistic.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { isQueued } from '../../lib/offline/queueable-request.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';
import { accountKeys, accountQueryOptions } from './queries.ts';

export const accountMutationKeys = {
  create: () => ['accounts', 'create'] as const,
  update: (id: string) => ['accounts', 'update', id] as const,
  delete: (id: string) => ['accounts', 'delete', id] as const,
  unlink: (id: string) => ['accounts', 'unlink', id] as const,
  status: (id: string) => ['accounts', 'status', id] as const,
};

/**
 * An account's edit as its form shows it before the user changes anything. Its language may be one no
 * longer offered, so it is a string where the request's is one of the supported languages.
 */
export type AccountEditBase = Omit<TenantUpdate, 'locale'> & { locale: string };

export interface AccountEdit extends Versioned<AccountEditBase> {
  update: TenantUpdate;
}

/** An edit kept in the outbox, shown at once on the cached account and lists (marked pending there). */
function showQueuedEdit(queryClient: QueryClient, id: string, update: TenantUpdate) {
  const edited = <T extends TenantSummary>(account: T): T => ({
    ...account,
    name: update.name,
    display_name: account.display_name === account.name ? update.name : account.display_name,
    locale: update.locale,
    service_period: { ...account.service_period, ...update.service_period },
  });
  applyToCached<Tenant>(queryClient, { queryKey: accountKeys.detail(id), exact: true }, edited);
  applyToCached<TenantList>(queryClient, { queryKey: accountKeys.lists() }, (list) => ({
    ...list,
    items: list.items.map((item) => (item.id === id ? edited(item) : item)),
  }));
}

/**
 * PUT tenant/{id} (H-15), on the version of the account the form was filled from: a change made by
 * someone else in the meantime is refused (412) rather than overwritten. Offline, the service worker
 * keeps it and the cached account shows it as pending. The edit form shows its own error alert, so
 * no toast.
 */
export function useUpdateAccount(account: Pick<Tenant, 'id' | 'name'>) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const userId = useProfile().id;
  const outbox = useOutbox();
  const { id, name } = account;
  return useMutation({
    mutationKey: accountMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.tenants.byId(id) },
    mutationFn: ({ update, ...change }: AccountEdit) =>
      sendVersionedChange(
        'PUT',
        apiPaths.tenants.byId(id),
        { ...change, body: update },
        { outbox, owner: userId, accountId: id, summary: t`Edit account ${name}` },
      ),
    onSuccess: (result, { update }) => {
      if (isQueued(result)) showQueuedEdit(queryClient, id, update);
    },
  });
}

/** POST tenants: the new account with its first administrator; answers the created account. */
export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.tenants.list },
    mutationFn: (request: TenantCreate) =>
      apiRequest('POST', apiPaths.tenants.list, { body: request, schema: tenantSchema }),
    onSuccess: (created) => {
      // The details page opens next; it shows what the server answered without asking again.
      queryClient.setQueryData(accountQueryOptions(created.id).queryKey, created);
    },
  });
}

/** DELETE tenants?ids=<id> (H-24). The confirmation dialog shows a failure itself. */
export function useDeleteAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: accountMutationKeys.delete(id),
    meta: { errorToast: false, changes: apiPaths.tenants.list },
    mutationFn: () => apiRequest('DELETE', apiPaths.tenants.list, { query: { ids: id } }),
    onSuccess: () => {
      // Dropped rather than invalidated: refetching a deleted account could only answer 404.
      queryClient.removeQueries({ queryKey: accountKeys.detail(id) });
    },
  });
}

/**
 * POST tenant/{id}/unlink with the word the user typed. Resolves once the account has been fetched
 * again, so the page never shows the link after the success banner.
 */
export function useUnlinkAccount(id: string) {
  return useMutation({
    mutationKey: accountMutationKeys.unlink(id),
    meta: { errorToast: false, changes: apiPaths.tenants.unlink(id) },
    mutationFn: (confirmation: typeof UNLINK_CONFIRMATION_WORD) =>
      apiRequest('POST', apiPaths.tenants.unlink(id), { body: { confirmation } }),
  });
}

/** Deactivate (`active` false) or reactivate an account, on the version the page shows. */
export interface AccountStatusChange {
  active: boolean;
  version: number;
}

/**
 * POST tenant/{id}/deactivate or /activate (decision 017). Needs a connection, like deletion: ending
 * the users' sessions is not a change to keep for later. The confirmation dialog shows a failure.
 */
export function useChangeAccountStatus(id: string) {
  return useMutation({
    mutationKey: accountMutationKeys.status(id),
    meta: { errorToast: false, changes: apiPaths.tenants.byId(id) },
    mutationFn: ({ active, version }: AccountStatusChange) =>
      apiRequest('POST', active ? apiPaths.tenants.activate(id) : apiPaths.tenants.deactivate(id), {
        ifMatch: version,
      }),
  });
}
