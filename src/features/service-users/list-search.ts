import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import {
  SERVICE_USER_STATUSES,
  type ServiceUserListQueryInput,
} from '../../../contract/schemas/service-users.ts';
import {
  formatSort,
  SERVICE_USER_SORT_COLUMNS,
  type ServiceUserSortColumn,
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

export const DEFAULT_SERVICE_USER_SORT: SortOrder<ServiceUserSortColumn> = {
  column: 'name',
  direction: 'asc',
};

/** The service users list's address: search text, status, account, sort and page (decision 018 §8.5). */
export const serviceUserListSearchSchema = v.object({
  q: textSearch,
  status: v.fallback(v.optional(v.picklist(SERVICE_USER_STATUSES)), undefined),
  account: idSearch,
  sort: sortSearch(SERVICE_USER_SORT_COLUMNS),
  page: pageSearch,
});
export type ServiceUserListSearch = v.InferOutput<typeof serviceUserListSearchSchema>;

export function serviceUserSortOf(search: ServiceUserListSearch): SortOrder<ServiceUserSortColumn> {
  return sortOf(SERVICE_USER_SORT_COLUMNS, search.sort, DEFAULT_SERVICE_USER_SORT);
}

/** Sort and filters as GET service-user and its export take them. */
export function serviceUserFilterQuery(
  search: ServiceUserListSearch,
): Omit<ServiceUserListQueryInput, 'limit' | 'offset'> {
  return { sort: formatSort(serviceUserSortOf(search)), ...commonFilterQuery(search) };
}

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export function serviceUserListQuery(search: ServiceUserListSearch): ServiceUserListQueryInput {
  return { ...pageQuery(search.page ?? 1, PAGE_SIZE), ...serviceUserFilterQuery(search) };
}
