import type * as v from 'valibot';
import {
  SERVICE_USER_STATUSES,
  type ServiceUserListQueryInput,
} from '../../../contract/schemas/service-users.ts';
import {
  SERVICE_USER_SORT_COLUMNS,
  type ServiceUserSortColumn,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import { statusAccountListSearch } from '../../components/list/list-search.ts';

export const DEFAULT_SERVICE_USER_SORT: SortOrder<ServiceUserSortColumn> = {
  column: 'name',
  direction: 'asc',
};

const listSearch = statusAccountListSearch(
  SERVICE_USER_SORT_COLUMNS,
  SERVICE_USER_STATUSES,
  DEFAULT_SERVICE_USER_SORT,
);

/** The service users list's address: search text, status, account, sort and page (decision 039 §5). */
export const serviceUserListSearchSchema = listSearch.schema;
export type ServiceUserListSearch = v.InferOutput<typeof serviceUserListSearchSchema>;

export const serviceUserSortOf: (search: ServiceUserListSearch) => SortOrder<ServiceUserSortColumn> =
  listSearch.sortOf;

/** Sort and filters as GET service-user and its export take them. */
export const serviceUserFilterQuery: (
  search: ServiceUserListSearch,
) => Omit<ServiceUserListQueryInput, 'limit' | 'offset'> = listSearch.filterQuery;

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export const serviceUserListQuery: (search: ServiceUserListSearch) => ServiceUserListQueryInput =
  listSearch.listQuery;
