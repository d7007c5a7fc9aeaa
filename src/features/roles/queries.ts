import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import type { ApplicationCode } from '../../../contract/permissions.ts';
import { tenantSchema } from '../../../contract/schemas/tenants.ts';
import {
  permissionGroupListSchema,
  type RoleListQuery,
  roleDetailsSchema,
  roleListSchema,
  roleUniqueSchema,
  userListSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { currentUserKeys } from '../../lib/current-user.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/** Role queries: not account-scoped in the key, as GET role answers by the caller's reach (decision 035 §2). */
export const roleKeys = {
  all: () => ['roles'] as const,
  lists: () => [...roleKeys.all(), 'list'] as const,
  list: (query: Partial<Record<keyof RoleListQuery, string>>) => [...roleKeys.lists(), query] as const,
  detail: (id: string) => [...roleKeys.all(), 'detail', id] as const,
  users: (id: string, page: { limit: string; offset: string }) =>
    [...roleKeys.detail(id), 'users', page] as const,
  permissionGroups: (applicationId: ApplicationCode, accountId: string) =>
    [...roleKeys.all(), 'permission-groups', applicationId, accountId] as const,
  userSearch: (q: string) => [...roleKeys.all(), 'user-search', q] as const,
};

/**
 * What a change of a role makes stale: the roles, and the profile, whose permissions may follow (the
 * app adds the users, whose role names the lists show).
 */
export const rolesStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/role`,
  queryKeys: [roleKeys.all(), currentUserKeys.profile()],
};

export function roleListQueryOptions(query: Partial<Record<keyof RoleListQuery, string>>) {
  return queryOptions({
    queryKey: roleKeys.list(query),
    queryFn: ({ signal }) => apiListRequest(apiPaths.roles.list, { query, schema: roleListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function roleQueryOptions(id: string) {
  return queryOptions({
    queryKey: roleKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.roles.byId(id), { schema: roleDetailsSchema, signal }),
  });
}

export function roleUsersQueryOptions(id: string, page: { limit: string; offset: string }) {
  return queryOptions({
    queryKey: roleKeys.users(id, page),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.roles.users(id), { query: page, schema: userListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function permissionGroupsQueryOptions(applicationId: ApplicationCode, accountId: string) {
  return queryOptions({
    queryKey: roleKeys.permissionGroups(applicationId, accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.permissionGroups, {
        query: { application_id: applicationId, account_id: accountId },
        schema: permissionGroupListSchema,
        signal,
      }),
  });
}

/** The users the assign dialog offers: ten of those the viewer reaches whose name, username or e-mail match. */
export function roleUserSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: roleKeys.userSearch(q),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.list, {
        query: { q, limit: '10', offset: '0', sort: 'name:asc' },
        schema: userListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { persist: false },
  });
}

/** GET role/unique: whether no other active role of the account and application, nor a built-in one, has the name. */
export function isRoleNameUnique(query: {
  application_id: ApplicationCode;
  account_id: string;
  name: string;
}) {
  return apiRequest('GET', apiPaths.roles.unique, { query, schema: roleUniqueSchema }).then(
    (answer) => answer.unique,
  );
}

/** The name of the account a role is made for, as the role form shows it. */
export function roleAccountQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: [...roleKeys.all(), 'account', accountId] as const,
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.byId(accountId), { schema: tenantSchema, signal }).then(
        (account) => ({ id: account.id, name: account.display_name }),
      ),
  });
}
