import { queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import { clientAuthCertificateListSchema } from '../../../contract/schemas/client-auth.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * Whose client-authentication certificates: a person's (`user/{id}/client-auth-certificate`) or a
 * service user's (`service-user/{id}/client-auth-certificate`), decision 019.
 */
export interface CertificateOwner {
  kind: 'person' | 'service';
  id: string;
}

/** The certificate paths of `owner`. */
export function certificatePaths(owner: CertificateOwner) {
  const paths = owner.kind === 'service' ? apiPaths.serviceUsers : apiPaths.users;
  return {
    list: paths.clientAuthCertificates(owner.id),
    enable: (certId: string) => paths.clientAuthCertificateEnable(owner.id, certId),
  };
}

export const clientAuthKeys = {
  all: () => ['client-auth-certificates'] as const,
  list: (userId: string) => [...clientAuthKeys.all(), userId] as const,
};

/** What a change of a user's or a service user's client-authentication certificate makes stale. */
export const clientAuthStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^${UI_API_V1}/(?:service-)?user/[^/]+/client-auth-certificate`),
  queryKeys: [clientAuthKeys.all()],
};

/** A user's certificates, newest first; a user holds a handful, so one page of 100 shows them all. */
export function clientAuthListQueryOptions(owner: CertificateOwner) {
  return queryOptions({
    queryKey: clientAuthKeys.list(owner.id),
    // Read again on every visit when online: a certificate revoked on its own page, or disabled by
    // someone else, must not show as working from the cache.
    staleTime: 0,
    queryFn: ({ signal }) =>
      apiRequest('GET', certificatePaths(owner).list, {
        query: { limit: '100' },
        schema: clientAuthCertificateListSchema,
        signal,
      }),
  });
}
