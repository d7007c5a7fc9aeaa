import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type RoleCreate,
  type RoleUpdate,
  type RoleUsersUpdate,
  roleSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const roleMutationKeys = {
  create: () => ['roles', 'create'] as const,
  update: (id: string) => ['roles', 'update', id] as const,
  archive: (id: string) => ['roles', 'archive', id] as const,
  users: (id: string) => ['roles', 'users', id] as const,
};

/** POST role: a new custom role, or a clone when `cloned_from` names its source. Needs a connection. */
export function useCreateRole() {
  return useMutation({
    mutationKey: roleMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.roles.list },
    mutationFn: (request: RoleCreate) =>
      apiRequest('POST', apiPaths.roles.list, { body: request, schema: roleSchema }),
  });
}

/** PUT role/{id} on the version the form was filled from: someone else's change meanwhile is a 412. */
export function useUpdateRole(id: string) {
  return useMutation({
    mutationKey: roleMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.roles.byId(id) },
    mutationFn: ({ update, version }: { update: RoleUpdate; version: number }) =>
      apiRequest('PUT', apiPaths.roles.byId(id), { body: update, ifMatch: version }),
  });
}

/** DELETE role/{id}: archives the role, which takes its permissions from its holders at once. */
export function useArchiveRole(id: string) {
  return useMutation({
    mutationKey: roleMutationKeys.archive(id),
    meta: { errorToast: false, changes: apiPaths.roles.byId(id) },
    mutationFn: (version: number) => apiRequest('DELETE', apiPaths.roles.byId(id), { ifMatch: version }),
  });
}

/** PUT role/{id}/users: gives the role to `add` and takes it from `remove`, all or none. */
export function useChangeRoleUsers(id: string) {
  return useMutation({
    mutationKey: roleMutationKeys.users(id),
    meta: { errorToast: false, changes: apiPaths.roles.users(id) },
    mutationFn: (change: Partial<RoleUsersUpdate>) =>
      apiRequest('PUT', apiPaths.roles.users(id), { body: change }),
  });
}
