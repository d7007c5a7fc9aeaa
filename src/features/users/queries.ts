import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import { ALL_ITEMS_LIMIT } from '../../../contract/schemas/common.ts';
import { tenantSchema } from '../../../contract/schemas/tenants.ts';
import {
  roleListSchema,
  type UserListQueryInput,
  userApplicationListSchema,
  userExistsSchema,
  userListSchema,
  userSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * User queries. Not account-scoped: which users a caller reaches follows its own scope, not the
 * account selected in the header (decision 018 §3.1).
 */
export const userKeys = {
  all: () => ['users'] as const,
  lists: () => [...userKeys.all(), 'list'] as const,
  list: (query: UserListQueryInput) => [...userKeys.lists(), query] as const,
  detail: (id: string) => [...userKeys.all(), 'detail', id] as const,
  applications: (id: string) => [...userKeys.detail(id), 'applications'] as const,
  roleChoices: () => [...userKeys.all(), 'role-choices'] as const,
  /** The roles a user of `accountId` may hold: built-in ones and that account's custom ones. */
  accountRoles: (accountId: string) => [...userKeys.all(), 'account-roles', accountId] as const,
  /** The accounts a new user's primary account and further accounts are chosen from. */
  /** What the pages read of one account: its licensed applications and sign-in methods. */
  account: (accountId: string) => [...userKeys.all(), 'account', accountId] as const,
};

/**
 * What a change of a user makes stale, an administrator's or the person's own (decision 039 §9):
 * the users, and the profile, which names the signed-in user. Their tokens, certificates and bulk
 * imports are their own domains'.
 */
export const usersStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^${UI_API_V1}/user(?!/bulk|/[^/]+/(?:api-tokens|client-auth-certificate))`),
  queryKeys: [userKeys.all(), currentUserKeys.profile()],
};

export function userListQueryOptions(query: UserListQueryInput) {
  return queryOptions({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => apiListRequest(apiPaths.users.list, { query, schema: userListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => apiRequest('GET', apiPaths.users.byId(id), { schema: userSchema, signal }),
  });
}

export function userApplicationsQueryOptions(id: string) {
  return queryOptions({
    queryKey: userKeys.applications(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.applications(id), { schema: userApplicationListSchema, signal }),
  });
}

/**
 * The roles the list's role filter offers: the active ones the caller sees, built-in and custom.
 * One page of 100 is every role an account has in practice; the filter is a shortcut, not the
 * roles list.
 */
export function roleChoicesQueryOptions() {
  return queryOptions({
    queryKey: userKeys.roleChoices(),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.roles.list, {
        query: { status: 'active', sort: 'name:asc', limit: '100' },
        schema: roleListSchema,
        signal,
      }),
  });
}

/** The active roles a user of `accountId` may be given (GET role?account_id=), by name. */
export function accountRolesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: userKeys.accountRoles(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.roles.list, {
        query: { account_id: accountId, status: 'active', sort: 'name:asc', limit: String(ALL_ITEMS_LIMIT) },
        schema: roleListSchema,
        signal,
      }),
  });
}

/** One account: which applications it licenses and whether it has a single sign-on method. */
export function userAccountQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: userKeys.account(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.byId(accountId), { schema: tenantSchema, signal }),
  });
}

/** GET user/exists: whether a user name is taken. Asked on leaving the field, never cached. */
export async function userNameTaken(userName: string, signal?: AbortSignal): Promise<boolean> {
  const answer = await apiRequest('GET', apiPaths.users.exists, {
    query: { user_name: userName },
    schema: userExistsSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.exists;
}
