import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1, UI_API_V2 } from '../../../contract/paths.ts';
import { certificateProfileListSchema } from '../../../contract/schemas/certificate-profiles.ts';
import { ALL_ITEMS_LIMIT } from '../../../contract/schemas/common.ts';
import { enrollmentListSchema, enrollmentSchema } from '../../../contract/schemas/enrollments.ts';
import { userListSchema } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';
import type { EnrollmentListQueryInput } from './list-search.ts';

/** Enrollment queries; which enrollments a caller sees follows its own account reach. */
export const enrollmentKeys = {
  all: () => ['enrollments'] as const,
  lists: () => [...enrollmentKeys.all(), 'list'] as const,
  list: (query: EnrollmentListQueryInput) => [...enrollmentKeys.lists(), query] as const,
  details: () => [...enrollmentKeys.all(), 'detail'] as const,
  detail: (id: string) => [...enrollmentKeys.details(), id] as const,
  choices: (kind: 'people' | 'profiles', accountId: string) =>
    [...enrollmentKeys.all(), 'choices', kind, accountId] as const,
};

/**
 * What a change of an enrollment makes stale: the lists and the enrollments; the people and profiles
 * one may enroll stay as they are.
 */
export const enrollmentsStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^(?:${UI_API_V1}|${UI_API_V2})/enrollment`),
  queryKeys: [enrollmentKeys.lists(), enrollmentKeys.details()],
};

export function enrollmentListQueryOptions(query: EnrollmentListQueryInput) {
  return queryOptions({
    queryKey: enrollmentKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.enrollments.list, {
        query: { ...query },
        schema: enrollmentListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One enrollment; read fresh when online, since its actions send the version shown. */
export function enrollmentQueryOptions(id: string) {
  return queryOptions({
    queryKey: enrollmentKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.enrollments.byId(id), { schema: enrollmentSchema, signal }),
    staleTime: 0,
  });
}

/** The people of an account an administrator may enroll (its users, by name); the server refuses whom it may not. */
export function enrollablePeopleQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: enrollmentKeys.choices('people', accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.list, {
        query: { account_id: accountId, sort: 'name:asc', limit: String(ALL_ITEMS_LIMIT) },
        schema: userListSchema,
        signal,
      }),
  });
}

/** The certificate profiles of an account, which an enrollment is made under. */
export function accountProfilesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: enrollmentKeys.choices('profiles', accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.certificateProfiles.accountProfiles(accountId), {
        schema: certificateProfileListSchema,
        signal,
      }),
  });
}
