import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import {
  formatSort,
  PROFILE_SORT_COLUMNS,
  type ProfileSortColumn,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import {
  idSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
  textSearch,
} from '../../components/list/list-search.ts';

export const DEFAULT_PROFILE_SORT: SortOrder<ProfileSortColumn> = { column: 'name', direction: 'asc' };

/** The profiles list's address: name filter, account, sort and page. */
export const profileListSearchSchema = v.object({
  name: textSearch,
  account: idSearch,
  sort: sortSearch(PROFILE_SORT_COLUMNS),
  page: pageSearch,
});
export type ProfileListSearch = v.InferOutput<typeof profileListSearchSchema>;

export function profileSortOf(search: ProfileListSearch): SortOrder<ProfileSortColumn> {
  return sortOf(PROFILE_SORT_COLUMNS, search.sort, DEFAULT_PROFILE_SORT);
}

/** GET profile's query for one page of 20; the loader and the page build the same key with it. */
export function profileListQuery(search: ProfileListSearch): Record<string, string> {
  const name = search.name?.trim();
  return {
    ...pageQuery(search.page ?? 1, PAGE_SIZE),
    sort: formatSort(profileSortOf(search)),
    ...(name ? { name } : {}),
    ...(search.account ? { account_id: search.account } : {}),
  };
}
