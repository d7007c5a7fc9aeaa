import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { publicEnrollmentSchema } from '../../../contract/schemas/enrollments.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const enrollmentKeys = {
  all: () => ['enrollment'] as const,
  byCode: (id: string, code: string) => [...enrollmentKeys.all(), id, code] as const,
};

/**
 * GET enrollment/{id}/{code}: the enrollment as its mailed code opens it. Read fresh on every page
 * load and never retried: a wrong code counts against the enrollment's attempts (decision 021 §2).
 */
export function enrollmentByCodeQueryOptions(id: string, code: string) {
  return queryOptions({
    queryKey: enrollmentKeys.byCode(id, code),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.enrollments.byCode(id, code), {
        schema: publicEnrollmentSchema,
        sessionCheck: false,
        signal,
      }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
