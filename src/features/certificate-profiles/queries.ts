import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, CA_API_V1 } from '../../../contract/paths.ts';
import {
  certificateProfileListSchema,
  certificateProfileSchema,
} from '../../../contract/schemas/certificate-profiles.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/** Certificate-profile queries; which profiles a caller sees follows its own account reach. */
export const profileKeys = {
  all: () => ['certificate-profiles'] as const,
  lists: () => [...profileKeys.all(), 'list'] as const,
  list: (query: Record<string, string>) => [...profileKeys.lists(), query] as const,
  detail: (id: string) => [...profileKeys.all(), 'detail', id] as const,
};

/** What a change of a certificate profile makes stale. */
export const certificateProfilesStaleAfter: StaleAfterChange = {
  paths: `${CA_API_V1}/profile`,
  queryKeys: [profileKeys.all()],
};

export function profileListQueryOptions(query: Record<string, string>) {
  return queryOptions({
    queryKey: profileKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.certificateProfiles.profiles, {
        query,
        schema: certificateProfileListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One profile; read fresh when online, since the edit form starts from it. */
export function profileQueryOptions(id: string) {
  return queryOptions({
    queryKey: profileKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.certificateProfiles.byId(id), { schema: certificateProfileSchema, signal }),
    staleTime: 0,
  });
}
