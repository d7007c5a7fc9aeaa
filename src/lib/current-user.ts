import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { apiPaths } from '../../contract/paths.ts';
import type { AccessScope } from '../../contract/permissions.ts';
import { listSchema } from '../../contract/schemas/common.ts';
import {
  applicationSchema,
  type Profile,
  permissionEntrySchema,
  profileSchema,
} from '../../contract/schemas/profile.ts';
import { resolveActiveAccountId, storedActiveAccountId, useStoredActiveAccountId } from './active-account.ts';
import { apiRequest } from './api-client.ts';
import { ACCOUNT_SCOPED_KEY } from './query-client.ts';
import { recentAccounts } from './recent-accounts.ts';

/** The signed-in user: profile, permissions and applications, fetched at the start of a secure page (B-27). */
export const currentUserKeys = {
  profile: () => ['current-user', 'profile'] as const,
  permissions: (scope: AccessScope, accountId: string) =>
    [...ACCOUNT_SCOPED_KEY, accountId, 'permissions', scope] as const,
  applications: (accountId: string) => [...ACCOUNT_SCOPED_KEY, accountId, 'applications'] as const,
};

/**
 * What the user may do (permissions, applications): read from the server at every start with a
 * connection, because an administrator may have changed it since; the stored cache serves it only
 * offline.
 */
export function isAccessQuery(queryKey: readonly unknown[]): boolean {
  const [scope, , kind] = queryKey;
  return scope === ACCOUNT_SCOPED_KEY[0] && (kind === 'permissions' || kind === 'applications');
}

export function profileQueryOptions() {
  return queryOptions({
    queryKey: currentUserKeys.profile(),
    queryFn: ({ signal }) => apiRequest('GET', apiPaths.profile, { schema: profileSchema, signal }),
  });
}

export function permissionsQueryOptions(scope: AccessScope, accountId: string) {
  return queryOptions({
    queryKey: currentUserKeys.permissions(scope, accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.permissions, {
        query: { accessScope: scope, accountId },
        schema: listSchema(permissionEntrySchema),
        signal,
      }),
    select: (list) => list.items.map((entry) => entry.name),
  });
}

export function applicationsQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: currentUserKeys.applications(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.userApplications, {
        query: { accountId },
        schema: listSchema(applicationSchema),
        signal,
      }),
  });
}

/**
 * The accounts the user may select without asking the server again: the profile's, and for system and
 * partner scope, which reach more accounts than their profile lists, those chosen in the switcher.
 * The server still checks every call; the secure layout falls back to the primary account when it
 * refuses one.
 */
export function switchableAccountsOf(
  profile: Pick<Profile, 'id' | 'access_scope' | 'accounts'>,
): readonly { id: string; display_name: string }[] {
  return profile.access_scope === 'account'
    ? profile.accounts
    : [...profile.accounts, ...recentAccounts(profile.id)];
}

/** For loaders, which run outside React: the account the current user works in. */
export function activeAccountIdOf(profile: Profile): string {
  return resolveActiveAccountId(
    storedActiveAccountId(),
    switchableAccountsOf(profile),
    profile.primary_account_id,
  );
}

export function useProfile(): Profile {
  return useSuspenseQuery(profileQueryOptions()).data;
}

export function useActiveAccountId(): string {
  const profile = useProfile();
  const stored = useStoredActiveAccountId();
  return resolveActiveAccountId(stored, switchableAccountsOf(profile), profile.primary_account_id);
}

/** The user's full name as the header and menus show it. */
export function fullNameOf(profile: Pick<Profile, 'first_name' | 'last_name'>): string {
  return `${profile.first_name} ${profile.last_name}`.trim();
}
