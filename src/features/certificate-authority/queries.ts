import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { certificateAuthoritySchema } from '../../../contract/schemas/certificate-authority.ts';
import { listSchema } from '../../../contract/schemas/common.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const certificateAuthorityKeys = {
  all: () => ['certificate-authorities'] as const,
  list: () => [...certificateAuthorityKeys.all(), 'list'] as const,
};

/** The platform's CAs (a list with items and total, overview §3): the root and the issuing CA. */
export const certificateAuthorityListSchema = listSchema(certificateAuthoritySchema);

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
