import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type User,
  type UserAccess,
  type UserCreate,
  type UserUpdate,
  userSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { useProfile } from '../../lib/current-user.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';
import { userKeys, userQueryOptions } from './queries.ts';

export const userMutationKeys = {
  create: () => ['users', 'create'] as const,
  update: (id: string) => ['users', 'update', id] as const,
  access: (id: string) => ['users', 'access', id] as const,
  action: (id: string) => ['users', 'action', id] as const,
  deleteMany: () => ['users', 'delete'] as const,
};

/** POST user (decision 035 §1): answers the created user, which the details page shows at once. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.users.list },
    mutationFn: (request: UserCreate) =>
      apiRequest('POST', apiPaths.users.list, { body: request, schema: userSchema }),
    onSuccess: (created) => {
      queryClient.setQueryData(userQueryOptions(created.id).queryKey, created);
    },
  });
}

export interface UserEdit extends Versioned<UserUpdate> {
  update: UserUpdate;
}

/**
 * PUT user/{id} on the version the form was filled from (If-Match required): queueable, so offline
 * the outbox keeps it (decision 039 §9). The form shows its own failure.
 */
export function useUpdateUser(user: Pick<User, 'id' | 'user_name' | 'primary_account_id'>) {
  const { t } = useLingui();
  const owner = useProfile().id;
  const outbox = useOutbox();
  const { id, user_name: userName } = user;
  return useMutation({
    mutationKey: userMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.users.byId(id) },
    mutationFn: ({ update, ...change }: UserEdit) =>
      sendVersionedChange(
        'PUT',
        apiPaths.users.byId(id),
        { ...change, body: update },
        { outbox, owner, accountId: user.primary_account_id, summary: t`Edit administrator ${userName}` },
      ),
  });
}

/** PUT user/{id}/access: the full sets of further accounts and roles, on the version shown. */
export function useUpdateUserAccess(id: string) {
  return useMutation({
    mutationKey: userMutationKeys.access(id),
    meta: { errorToast: false, changes: apiPaths.users.access(id) },
    mutationFn: ({ access, version }: { access: UserAccess; version: number }) =>
      apiRequest('PUT', apiPaths.users.access(id), { body: access, ifMatch: version }),
  });
}

/**
 * The one-click actions on a user (row menu and details page). Each needs a connection; mails are
 * not kept for later. `version` is required where the server requires If-Match.
 */
export type UserAction =
  | { kind: 'enable'; enabled: boolean; version: number }
  | { kind: 'verification' }
  | { kind: 'passwordReset' }
  | { kind: 'mfa' }
  | { kind: 'standardLogin' }
  | { kind: 'ssoEmail' }
  | { kind: 'delete'; version: number }
  | { kind: 'defaultApplication'; context: string };

function sendAction(id: string, action: UserAction): Promise<unknown> {
  switch (action.kind) {
    case 'enable':
      return apiRequest('PUT', apiPaths.users.enable(id), {
        body: { enabled: action.enabled },
        ifMatch: action.version,
      });
    case 'verification':
      return apiRequest('PUT', apiPaths.users.verification(id));
    case 'passwordReset':
      return apiRequest('PUT', apiPaths.users.resetMail(id));
    case 'mfa':
      return apiRequest('DELETE', apiPaths.users.mfa(id));
    case 'standardLogin':
      return apiRequest('PUT', apiPaths.users.standardLogin(id));
    case 'ssoEmail':
      return apiRequest('PUT', apiPaths.users.resendSsoEmail(id));
    case 'delete':
      return apiRequest('DELETE', apiPaths.users.byId(id), { ifMatch: action.version });
    case 'defaultApplication':
      return apiRequest('PUT', apiPaths.users.defaultManager(id, action.context));
  }
}

/** Runs one action on user `id`; the caller shows the notice and any failure. */
export function useUserAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userMutationKeys.action(id),
    meta: { errorToast: false, changes: apiPaths.users.byId(id) },
    mutationFn: (action: UserAction) => sendAction(id, action),
    onSuccess: (_result, action) => {
      // Dropped rather than invalidated: refetching a deleted user could only answer 404.
      if (action.kind === 'delete') queryClient.removeQueries({ queryKey: userKeys.detail(id) });
    },
  });
}

/** DELETE user?ids=a,b: all or none (at most 100, the largest page is 20). */
export function useDeleteUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userMutationKeys.deleteMany(),
    meta: { errorToast: false, changes: apiPaths.users.list },
    mutationFn: (ids: readonly string[]) =>
      apiRequest('DELETE', apiPaths.users.list, { query: { ids: ids.join(',') } }),
    onSuccess: (_result, ids) => {
      for (const id of ids) queryClient.removeQueries({ queryKey: userKeys.detail(id) });
    },
  });
}
