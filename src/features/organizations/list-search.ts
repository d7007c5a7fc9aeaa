import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import type { OrganizationListQueryInput } from '../../../contract/schemas/organizations.ts';
import {
  formatSort,
  ORGANIZATION_SORT_COLUMNS,
  type OrganizationSortColumn,
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

export const DEFAULT_ORGANIZATION_SORT: SortOrder<OrganizationSortColumn> = {
  column: 'name',
  direction: 'asc',
};

/**
 * The list's address bar: which account (the account details page links here with one), the name
 * filter, the sort and the page.
 */
export const organizationListSearchSchema = v.object({
  accountId: idSearch,
  name: textSearch,
  sort: sortSearch(ORGANIZATION_SORT_COLUMNS),
  page: pageSearch,
});
export type OrganizationListSearch = v.InferOutput<typeof organizationListSearchSchema>;

/** The create page keeps the list's account, so an organization is created where the user was looking. */
export const organizationCreateSearchSchema = v.object({
  accountId: organizationListSearchSchema.entries.accountId,
});

export function organizationSortOf(search: OrganizationListSearch): SortOrder<OrganizationSortColumn> {
  return sortOf(ORGANIZATION_SORT_COLUMNS, search.sort, DEFAULT_ORGANIZATION_SORT);
}

/** The GET organizations query of a list view; the loader and the page build the same key with it. */
export function organizationListQuery(
  search: OrganizationListSearch,
  accountId: string,
): OrganizationListQueryInput {
  const name = search.name?.trim();
  return {
    accountId,
    ...pageQuery(search.page ?? 1, PAGE_SIZE),
    sort: formatSort(organizationSortOf(search)),
    ...(name ? { name } : {}),
  };
}
