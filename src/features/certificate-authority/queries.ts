import { queryOptions } from '@tanstack/react-query';
import * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import { certificateAuthoritySchema } from '../../../contract/schemas/certificate-authority.ts';
import { listSchema } from '../../../contract/schemas/common.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const certificateAuthorityKeys = {
  all: () => ['certificate-authorities'] as const,
  list: () => [...certificateAuthorityKeys.all(), 'list'] as const,
};

/**
 * The platform's CAs: the root and the issuing CA. Read as a list with items and total (overview §3)
 * or as a bare array, the two shapes the CA's list has had, so the pages work with either server.
 */
export const certificateAuthorityListSchema = v.union([
  listSchema(certificateAuthoritySchema),
  v.pipe(
    v.array(certificateAuthoritySchema),
    v.transform((items) => ({ items, total: items.length })),
  ),
]);

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
