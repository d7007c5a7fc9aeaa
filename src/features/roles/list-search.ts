import * as v from 'valibot';
import { APPLICATION_CODES } from '../../../contract/permissions.ts';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import { ROLE_TYPES } from '../../../contract/schemas/users.ts';
import {
  formatSort,
  ROLE_SORT_COLUMNS,
  type RoleSortColumn,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import {
  choiceSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
  textSearch,
} from '../../components/list/list-search.ts';

export const DEFAULT_ROLE_SORT: SortOrder<RoleSortColumn> = { column: 'name', direction: 'asc' };

/** The status filter: active roles unless the address asks for archived ones or both (decision 039 §6). */
export const ROLE_STATUS_FILTERS = ['active', 'archived', 'all'] as const;
export type RoleStatusFilter = (typeof ROLE_STATUS_FILTERS)[number];

/** The roles list's address: search, application, type, status, account, sort and page. */
export const roleListSearchSchema = v.object({
  q: textSearch,
  application: choiceSearch(APPLICATION_CODES),
  type: choiceSearch(ROLE_TYPES),
  /** Named apart from the users list's `status`, whose values differ. */
  role_status: choiceSearch(ROLE_STATUS_FILTERS),
  /** The account whose custom roles are listed beside the built-in ones (system and partner viewers). */
  account: v.fallback(v.optional(v.pipe(v.string(), v.uuid())), undefined),
  sort: sortSearch(ROLE_SORT_COLUMNS),
  page: pageSearch,
});
export type RoleListSearch = v.InferOutput<typeof roleListSearchSchema>;

export function roleSortOf(search: RoleListSearch): SortOrder<RoleSortColumn> {
  return sortOf(ROLE_SORT_COLUMNS, search.sort, DEFAULT_ROLE_SORT);
}

/** Sort and filters as GET role and GET role/export take them. */
export function roleFilterQuery(search: RoleListSearch): Record<string, string> {
  const q = search.q?.trim();
  const status = search.role_status ?? 'active';
  return {
    sort: formatSort(roleSortOf(search)),
    ...(q ? { q } : {}),
    ...(search.application ? { application_id: search.application } : {}),
    ...(search.type ? { type: search.type } : {}),
    ...(search.account ? { account_id: search.account } : {}),
    ...(status === 'all' ? {} : { status }),
  };
}

/** One page of 20; the loader and the page build the same key with it. */
export function roleListQuery(search: RoleListSearch): Record<string, string> {
  return { ...pageQuery(search.page ?? 1, PAGE_SIZE), ...roleFilterQuery(search) };
}
