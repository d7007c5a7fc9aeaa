import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, CA_API_V1 } from '../../../contract/paths.ts';
import {
  type CertificateListQueryInput,
  certificateListSchema,
  certificateSchema,
} from '../../../contract/schemas/certificates.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * Certificate queries. Not account-scoped: which certificates a caller reaches follows its own scope
 * (the accounts it sees).
 */
export const certificateKeys = {
  all: () => ['certificates'] as const,
  lists: () => [...certificateKeys.all(), 'list'] as const,
  list: (query: CertificateListQueryInput) => [...certificateKeys.lists(), query] as const,
  detail: (id: string) => [...certificateKeys.all(), 'detail', id] as const,
};

/** What a change of a certificate (its revocation) makes stale. */
export const certificatesStaleAfter: StaleAfterChange = {
  paths: `${CA_API_V1}/certificate/`,
  queryKeys: [certificateKeys.all()],
};

export function certificateListQueryOptions(query: CertificateListQueryInput) {
  return queryOptions({
    queryKey: certificateKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.certificates.list, { query, schema: certificateListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function certificateQueryOptions(id: string) {
  return queryOptions({
    queryKey: certificateKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.certificates.byId(id), { schema: certificateSchema, signal }),
  });
}
