import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { userApplicationListSchema } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const profileKeys = {
  all: ['profile-page'] as const,
  applications: (id: string) => [...profileKeys.all, 'applications', id] as const,
};

/** GET user/{own id}/applications: the applications one holds a role in, with their contexts. */
export function ownApplicationsQueryOptions(id: string) {
  return queryOptions({
    queryKey: profileKeys.applications(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.applications(id), { schema: userApplicationListSchema, signal }),
  });
}
