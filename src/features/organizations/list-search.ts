import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import type { OrganizationListQueryInput } from '../../../contract/schemas/organizations.ts';
import type { SortDirection } from '../../../contract/schemas/query.ts';
import { ORGANIZATION_SORT_COLUMNS, type OrganizationSortColumn } from '../../../contract/sort-columns.ts';

const SORTS = ORGANIZATION_SORT_COLUMNS.flatMap((column) => [`${column}:asc`, `${column}:desc`] as const);
export type OrganizationSort = (typeof SORTS)[number];
export const DEFAULT_ORGANIZATION_SORT: OrganizationSort = 'name:asc';

/**
 * The list's address bar: which account (the account details page links here with one), the name
 * filter, the sort and the page. A value that does not fit is dropped rather than failing the page,
 * since addresses are shared and edited by hand.
 */
export const organizationListSearchSchema = v.object({
  accountId: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))), undefined),
  name: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(256))), undefined),
  sort: v.fallback(v.optional(v.picklist(SORTS)), undefined),
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
});
export type OrganizationListSearch = v.InferOutput<typeof organizationListSearchSchema>;

/** The create page keeps the list's account, so an organization is created where the user was looking. */
export const organizationCreateSearchSchema = v.object({
  accountId: organizationListSearchSchema.entries.accountId,
});

/** The GET organizations query of a list view; the loader and the page build the same key with it. */
export function organizationListQuery(
  search: OrganizationListSearch,
  accountId: string,
): OrganizationListQueryInput {
  const name = search.name?.trim();
  return {
    accountId,
    limit: String(PAGE_SIZE),
    offset: String(((search.page ?? 1) - 1) * PAGE_SIZE),
    sort: search.sort ?? DEFAULT_ORGANIZATION_SORT,
    ...(name ? { name } : {}),
  };
}

export function sortParts(sort: OrganizationSort): [OrganizationSortColumn, SortDirection] {
  return sort.split(':') as [OrganizationSortColumn, SortDirection];
}
