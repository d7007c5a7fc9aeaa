import type * as v from 'valibot';
import { CERTIFICATE_STATUSES } from '../../../contract/certificate-policy.ts';
import type { CertificateListQueryInput } from '../../../contract/schemas/certificates.ts';
import {
  CERTIFICATE_SORT_COLUMNS,
  type CertificateSortColumn,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import { statusAccountListSearch } from '../../components/list/list-search.ts';

export const DEFAULT_CERTIFICATE_SORT: SortOrder<CertificateSortColumn> = {
  column: 'issued',
  direction: 'desc',
};

const listSearch = statusAccountListSearch(
  CERTIFICATE_SORT_COLUMNS,
  CERTIFICATE_STATUSES,
  DEFAULT_CERTIFICATE_SORT,
);

/** The certificates list's address: search text, status, account, sort and page. */
export const certificateListSearchSchema = listSearch.schema;
export type CertificateListSearch = v.InferOutput<typeof certificateListSearchSchema>;

export const certificateSortOf: (search: CertificateListSearch) => SortOrder<CertificateSortColumn> =
  listSearch.sortOf;

/** Sort and filters as GET certificate and its CSV export take them. */
export const certificateFilterQuery: (
  search: CertificateListSearch,
) => Omit<CertificateListQueryInput, 'limit' | 'offset'> = listSearch.filterQuery;

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export const certificateListQuery: (search: CertificateListSearch) => CertificateListQueryInput =
  listSearch.listQuery;
