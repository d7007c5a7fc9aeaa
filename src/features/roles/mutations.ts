import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type RoleCreate,
  type RoleUpdate,
  type RoleUsersUpdate,
  roleSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { roleKeys } from './queries.ts';

export const roleMutationKeys = {
  create: () => ['roles', 'create'] as const,
  update: (id: string) => ['roles', 'update', id] as const,
  archive: (id: string) => ['roles', 'archive', id] as const,
  users: (id: string) => ['roles', 'users', id] as const,
};

/**
 * What a change of roles makes stale: every role query, the users (their roles and the role filter)
 * and the own profile, whose permissions may come from the role.
 */
function invalidateRoles(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: roleKeys.all() }),
    queryClient.invalidateQueries({ queryKey: ['users'] }),
    queryClient.invalidateQueries({ queryKey: currentUserKeys.profile() }),
  ]).then(() => undefined);
}

/** POST role: a new custom role, or a clone when `cloned_from` names its source. Needs a connection. */
export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: roleMutationKeys.create(),
    meta: { errorToast: false },
    mutationFn: (request: RoleCreate) =>
      apiRequest('POST', apiPaths.roles.list, { body: request, schema: roleSchema }),
    onSuccess: () => invalidateRoles(queryClient),
  });
}

/** PUT role/{id} on the version the form was filled from: someone else's change meanwhile is a 412. */
export function useUpdateRole(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: roleMutationKeys.update(id),
    meta: { errorToast: false },
    mutationFn: ({ update, version }: { update: RoleUpdate; version: number }) =>
      apiRequest('PUT', apiPaths.roles.byId(id), { body: update, ifMatch: version }),
    onSuccess: () => invalidateRoles(queryClient),
  });
}

/** DELETE role/{id}: archives the role, which takes its permissions from its holders at once. */
export function useArchiveRole(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: roleMutationKeys.archive(id),
    meta: { errorToast: false },
    mutationFn: (version: number) => apiRequest('DELETE', apiPaths.roles.byId(id), { ifMatch: version }),
    onSuccess: () => invalidateRoles(queryClient),
  });
}

/** PUT role/{id}/users: gives the role to `add` and takes it from `remove`, all or none. */
export function useChangeRoleUsers(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: roleMutationKeys.users(id),
    meta: { errorToast: false },
    mutationFn: (change: Partial<RoleUsersUpdate>) =>
      apiRequest('PUT', apiPaths.roles.users(id), { body: change }),
    onSuccess: () => invalidateRoles(queryClient),
  });
}
