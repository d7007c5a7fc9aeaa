import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { certificateAuthorityListSchema } from '../../../contract/schemas/certificate-authority.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const certificateAuthorityKeys = {
  all: () => ['certificate-authorities'] as const,
  list: () => [...certificateAuthorityKeys.all(), 'list'] as const,
};

/** The platform's CAs: the root and the issuing CA. */
export function certificateAuthoritiesQueryOptions() {
  return queryOptions({
    queryKey: certificateAuthorityKeys.list(),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.certificateAuthority.list, {
        schema: certificateAuthorityListSchema,
        signal,
      }),
  });
}
