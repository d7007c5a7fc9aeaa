import { useLingui } from '@lingui/react/macro';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import {
  type PasswordChange,
  type UserExists,
  type UserUpdate,
  userExistsSchema,
} from '../../../contract/schemas/users.ts';
import { notifyError } from '../../components/notify.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { applyToCached } from '../../lib/offline/optimistic.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { isQueued } from '../../lib/offline/queueable-request.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';

export const profileMutationKeys = {
  update: (id: string) => ['profile', 'update', id] as const,
  changePassword: (id: string) => ['profile', 'change-password', id] as const,
  verification: (id: string) => ['profile', 'verification', id] as const,
  defaultApplication: (id: string) => ['profile', 'default-application', id] as const,
};

/**
 * The own profile's edit as its form shows it before the user changes anything, in the shape of the
 * request. The stored language may be one no longer offered, so it is a string here.
 */
export type ProfileEditBase = Omit<UserUpdate, 'locale'> & { locale: string };

export interface ProfileEdit extends Versioned<ProfileEditBase> {
  update: UserUpdate;
}

/** A saved edit kept in the outbox, shown at once on the cached profile. */
function showQueuedEdit(queryClient: QueryClient, update: UserUpdate) {
  applyToCached<Profile>(queryClient, { queryKey: currentUserKeys.profile(), exact: true }, (profile) => ({
    ...profile,
    ...update,
    phone: update.phone === '' ? null : update.phone,
    aliases: update.aliases ?? profile.aliases,
  }));
}

/**
 * PUT user/{own id} (E-05 … E-26) on the version of the profile the form was filled from: a change
 * made meanwhile elsewhere is refused (412), not overwritten. Queueable like the administrator's edit
 * (decision 039 §9); the form shows its own error, so no toast.
 */
export function useUpdateProfile(profile: Pick<Profile, 'id' | 'primary_account_id'>) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const { id, primary_account_id: accountId } = profile;
  const outbox = useOutbox();
  return useMutation({
    mutationKey: profileMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.users.byId(id) },
    mutationFn: ({ update, ...change }: ProfileEdit) =>
      sendVersionedChange(
        'PUT',
        apiPaths.users.byId(id),
        { ...change, body: update },
        { outbox, owner: id, accountId, summary: t`Edit your profile` },
      ),
    onSuccess: (result, { update }) => {
      if (isQueued(result)) showQueuedEdit(queryClient, update);
    },
  });
}

/** GET user/exists: whether a user name is taken anywhere on the platform (E-09). */
export function userNameExists(userName: string, signal?: AbortSignal): Promise<UserExists> {
  return apiRequest('GET', apiPaths.users.exists, {
    query: { user_name: userName },
    schema: userExistsSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * PUT user/{own id}/password: needs the server (a credential is never queued), from the change-password
 * form, which shows its own errors. The profile's version moves on with it, so the profile is read again.
 */
export function useChangePassword(userId: string) {
  return useMutation({
    mutationKey: profileMutationKeys.changePassword(userId),
    meta: { errorToast: false, changes: apiPaths.users.password(userId) },
    mutationFn: (request: PasswordChange) =>
      apiRequest('PUT', apiPaths.users.password(userId), { body: request }),
  });
}

/**
 * PUT user/{own id}/verification: sends the link to confirm one's e-mail again. Needs the server; a
 * refusal (such as 429 when it was just sent) is shown as the usual error notice.
 */
export function useResendVerification(userId: string) {
  return useMutation({
    mutationKey: profileMutationKeys.verification(userId),
    meta: { errorToast: false },
    onError: notifyError,
    mutationFn: () => apiRequest('PUT', apiPaths.users.verification(userId)),
  });
}

/** PUT user/{own id}/defaultManager?appUrl=: the application one lands in after signing in (O-25). */
export function useSetDefaultApplication(userId: string) {
  return useMutation({
    mutationKey: profileMutationKeys.defaultApplication(userId),
    meta: { errorToast: false, changes: apiPaths.users.byId(userId) },
    mutationFn: (context: string) => apiRequest('PUT', apiPaths.users.defaultManager(userId, context)),
  });
}
