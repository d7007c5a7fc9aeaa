import * as v from 'valibot';
import { ACCESS_SCOPES, type AccessScope } from '../../../contract/permissions.ts';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import { USER_STATUSES, type UserListQueryInput } from '../../../contract/schemas/users.ts';
import {
  formatSort,
  type SortOrder,
  USER_SORT_COLUMNS,
  type UserSortColumn,
} from '../../../contract/sort-columns.ts';
import {
  choiceSearch,
  idSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
  textSearch,
} from '../../components/list/list-search.ts';

export const DEFAULT_USER_SORT: SortOrder<UserSortColumn> = { column: 'name', direction: 'asc' };

/**
 * The administrators list's address: search text, status, scope, role, sort and page, so that a
 * filtered view can be shared, reloaded and returned to with Back (decision 039).
 */
export const userListSearchSchema = v.object({
  q: textSearch,
  status: choiceSearch(USER_STATUSES),
  scope: choiceSearch(ACCESS_SCOPES),
  role: idSearch,
  sort: sortSearch(USER_SORT_COLUMNS),
  page: pageSearch,
});
export type UserListSearch = v.InferOutput<typeof userListSearchSchema>;

/** Columns and filters only viewers who reach more than one account see (decision 039 §4). */
export function seesOtherAccounts(scope: AccessScope): boolean {
  return scope !== 'account';
}

/** The sort applied: an address sorting by the account column falls back when the viewer has none. */
export function userSortOf(search: UserListSearch, viewerScope: AccessScope): SortOrder<UserSortColumn> {
  const sort = sortOf(USER_SORT_COLUMNS, search.sort, DEFAULT_USER_SORT);
  return sort.column === 'account' && !seesOtherAccounts(viewerScope) ? DEFAULT_USER_SORT : sort;
}

/** Sort and filters as GET user and GET user/export take them; filters of hidden columns are not sent. */
export function userFilterQuery(
  search: UserListSearch,
  viewerScope: AccessScope,
): Omit<UserListQueryInput, 'limit' | 'offset'> {
  const q = search.q?.trim();
  return {
    sort: formatSort(userSortOf(search, viewerScope)),
    ...(q ? { q } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.scope && seesOtherAccounts(viewerScope) ? { scope: search.scope } : {}),
    ...(search.role ? { role_id: search.role } : {}),
  };
}

/** One page of the list, 20 rows; the loader and the page build the same key with it. */
export function userListQuery(search: UserListSearch, viewerScope: AccessScope): UserListQueryInput {
  return { ...pageQuery(search.page ?? 1, PAGE_SIZE), ...userFilterQuery(search, viewerScope) };
}
