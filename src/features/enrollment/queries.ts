import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  publicClientAuthOfferSchema,
  publicEnrollmentSchema,
} from '../../../contract/schemas/enrollments.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const enrollmentKeys = {
  all: () => ['enrollment'] as const,
  byCode: (id: string, code: string) => [...enrollmentKeys.all(), id, code] as const,
  clientAuth: (id: string, code: string) => [...enrollmentKeys.byCode(id, code), 'client-auth'] as const,
};

/**
 * GET enrollment/{id}/{code}/client-auth-certificate: the client certificate an administrator asked
 * for the enrollee, if any (decision 033). 409 means none was asked for: the page then offers nothing.
 */
export function enrollmentClientAuthQueryOptions(id: string, code: string) {
  return queryOptions({
    queryKey: enrollmentKeys.clientAuth(id, code),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.enrollments.publicClientAuthCertificate(id, code), {
        schema: publicClientAuthOfferSchema,
        sessionCheck: false,
        signal,
      }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

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
