import * as v from 'valibot';
import { CERTIFICATE_STATUSES } from '../../../contract/certificate-policy.ts';
import type { CertificateListQueryInput } from '../../../contract/schemas/certificates.ts';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import {
  CERTIFICATE_SORT_COLUMNS,
  type CertificateSortColumn,
  formatSort,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import {
  commonFilterQuery,
  idSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
  textSearch,
} from '../../components/list/list-search.ts';

export const DEFAULT_CERTIFICATE_SORT: SortOrder<CertificateSortColumn> = {
  column: 'issued',
  direction: 'desc',
};

/** The certificates list's address: search text, status, account, sort and page. */
export const certificateListSearchSchema = v.object({
  q: textSearch,
  status: v.fallback(v.optional(v.picklist(CERTIFICATE_STATUSES)), undefined),
  account: idSearch,
  sort: sortSearch(CERTIFICATE_SORT_COLUMNS),
  page: pageSearch,
});
export type CertificateListSearch = v.InferOutput<typeof certificateListSearchSchema>;

export function certificateSortOf(search: CertificateListSearch): SortOrder<CertificateSortColumn> {
  return sortOf(CERTIFICATE_SORT_COLUMNS, search.sort, DEFAULT_CERTIFICATE_SORT);
}

/** Sort and filters as GET certificate and its CSV export take them. */
export function certificateFilterQuery(
  search: CertificateListSearch,
): Omit<CertificateListQueryInput, 'limit' | 'offset'> {
  return { sort: formatSort(certificateSortOf(search)), ...commonFilterQuery(search) };
}

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export function certificateListQuery(search: CertificateListSearch): CertificateListQueryInput {
  return { ...pageQuery(search.page ?? 1, PAGE_SIZE), ...certificateFilterQuery(search) };
}
