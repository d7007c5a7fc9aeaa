import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import {
  ENROLLMENT_SORT_COLUMNS,
  ENROLLMENT_STATUSES,
  type EnrollmentStatus,
} from '../../../contract/schemas/enrollments.ts';
import { formatSort, type SortOrder } from '../../../contract/sort-columns.ts';
import {
  choiceSearch,
  idSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
  textSearch,
} from '../../components/list/list-search.ts';

export type EnrollmentSortColumn = (typeof ENROLLMENT_SORT_COLUMNS)[number];

export const DEFAULT_ENROLLMENT_SORT: SortOrder<EnrollmentSortColumn> = {
  column: 'created_at',
  direction: 'desc',
};

/** The enrollments list's address: search text, status, account, one seat's or one person's history, sort and page. */
export const enrollmentListSearchSchema = v.object({
  q: textSearch,
  status: choiceSearch(ENROLLMENT_STATUSES),
  account: idSearch,
  seat: idSearch,
  user: idSearch,
  sort: sortSearch(ENROLLMENT_SORT_COLUMNS),
  page: pageSearch,
});
export type EnrollmentListSearch = v.InferOutput<typeof enrollmentListSearchSchema>;

/** GET enrollments' query as the API reads it: every value a string, absent filters left out. */
export interface EnrollmentListQueryInput {
  limit: string;
  offset: string;
  sort: string;
  search?: string;
  status?: EnrollmentStatus;
  account_id?: string;
  seat_id?: string;
  user_id?: string;
}

export function enrollmentSortOf(search: EnrollmentListSearch): SortOrder<EnrollmentSortColumn> {
  return sortOf(ENROLLMENT_SORT_COLUMNS, search.sort, DEFAULT_ENROLLMENT_SORT);
}

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export function enrollmentListQuery(
  search: EnrollmentListSearch,
  pageSize = PAGE_SIZE,
): EnrollmentListQueryInput {
  const text = search.q?.trim();
  return {
    ...pageQuery(search.page ?? 1, pageSize),
    sort: formatSort(enrollmentSortOf(search)),
    ...(text ? { search: text } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.account ? { account_id: search.account } : {}),
    ...(search.seat ? { seat_id: search.seat } : {}),
    ...(search.user ? { user_id: search.user } : {}),
  };
}
