import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  roleListSchema,
  type UserListQueryInput,
  userApplicationListSchema,
  userListSchema,
  userSchema,
} from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';

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
};

export function userListQueryOptions(query: UserListQueryInput) {
  return queryOptions({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.list, { query, schema: userListSchema, signal }),
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
