import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type ServiceUser,
  type ServiceUserCreate,
  type ServiceUserUpdate,
  serviceUserCreatedSchema,
} from '../../../contract/schemas/service-users.ts';
import type { UserAccess } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { useProfile } from '../../lib/current-user.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';
import { serviceUserKeys } from './queries.ts';

export const serviceUserMutationKeys = {
  create: () => ['service-users', 'create'] as const,
  update: (id: string) => ['service-users', 'update', id] as const,
  enable: (id: string) => ['service-users', 'enable', id] as const,
  access: (id: string) => ['service-users', 'access', id] as const,
  delete: (id: string) => ['service-users', 'delete', id] as const,
};

/**
 * POST service-user. The answer holds the first token's value: it lives in the page's state only
 * (mutation results are never persisted, and this one is dropped as soon as nothing shows it).
 */
export function useCreateServiceUser() {
  return useMutation({
    mutationKey: serviceUserMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.serviceUsers.list },
    gcTime: 0,
    mutationFn: (request: ServiceUserCreate) =>
      apiRequest('POST', apiPaths.serviceUsers.list, { body: request, schema: serviceUserCreatedSchema }),
  });
}

export interface ServiceUserEdit extends Versioned<ServiceUserUpdate> {
  update: ServiceUserUpdate;
}

/**
 * PUT service-user/{id} on the version the form was filled from (a change made meanwhile is refused
 * with 412, not overwritten). Queueable: offline, the service worker keeps it for later.
 */
export function useUpdateServiceUser(serviceUser: Pick<ServiceUser, 'id' | 'name' | 'primary_account'>) {
  const { t } = useLingui();
  const owner = useProfile().id;
  const outbox = useOutbox();
  const { id, name } = serviceUser;
  return useMutation({
    mutationKey: serviceUserMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.serviceUsers.byId(id) },
    mutationFn: ({ update, ...change }: ServiceUserEdit) =>
      sendVersionedChange(
        'PUT',
        apiPaths.serviceUsers.byId(id),
        { ...change, body: update },
        { outbox, owner, accountId: serviceUser.primary_account.id, summary: t`Edit service user ${name}` },
      ),
  });
}

/** PUT service-user/{id}/enable on the version shown; the confirmation dialog shows a failure. */
export function useEnableServiceUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: serviceUserMutationKeys.enable(id),
    meta: { errorToast: false, changes: apiPaths.serviceUsers.enable(id) },
    mutationFn: ({ enabled, version }: { enabled: boolean; version: number }) =>
      apiRequest('PUT', apiPaths.serviceUsers.enable(id), { body: { enabled }, ifMatch: version }),
    // Refused because the service user moved on meanwhile: its pages show its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: serviceUserKeys.all() }),
  });
}

/**
 * PUT service-user/{id}/access: its whole set of accounts beyond the primary one and of roles, on the
 * version shown. Needs the server (a change of what it may do is never queued); the form shows a failure.
 */
export function useChangeServiceUserAccess(id: string) {
  return useMutation({
    mutationKey: serviceUserMutationKeys.access(id),
    meta: { errorToast: false, changes: apiPaths.serviceUsers.access(id) },
    mutationFn: ({ access, version }: { access: UserAccess; version: number }) =>
      apiRequest('PUT', apiPaths.serviceUsers.access(id), { body: access, ifMatch: version }),
  });
}

/** DELETE service-user/{id}: it and its tokens go. */
export function useDeleteServiceUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: serviceUserMutationKeys.delete(id),
    meta: { errorToast: false, changes: apiPaths.serviceUsers.byId(id) },
    mutationFn: (version: number) =>
      apiRequest('DELETE', apiPaths.serviceUsers.byId(id), { ifMatch: version }),
    onSuccess: () => queryClient.removeQueries({ queryKey: serviceUserKeys.detail(id) }),
  });
}
