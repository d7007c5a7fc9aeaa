import * as v from 'valibot';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import { formatSort, parseSort, type SortOrder } from '../../../contract/sort-columns.ts';

/*
 * The parts of a list's address (its search params), for the routes' `validateSearch`. Route
 * definitions load with the first screen, so this module holds schemas and arithmetic only. A value
 * that does not fit is dropped rather than failing the page: addresses are shared and edited by hand.
 */

/** The longest text a list filter takes, as the API's text filters (contract/schemas/query.ts). */
export const TEXT_FILTER_MAX_LENGTH = 256;

/** `page`: 1-based; absent means the first. */
export const pageSearch = v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined);

/** `sort`: `column:asc|desc` over the columns the list's API sorts by. */
export function sortSearch<TColumn extends string>(columns: readonly TColumn[]) {
  return v.fallback(
    v.optional(
      v.pipe(
        v.string(),
        v.check((text) => parseSort(columns, text) !== undefined),
      ),
    ),
    undefined,
  );
}

/** A free-text filter: absent when blank. */
export const textSearch = v.fallback(
  v.optional(v.pipe(v.string(), v.maxLength(TEXT_FILTER_MAX_LENGTH))),
  undefined,
);

/** One of a fixed set of values (a status, a type); anything else is dropped. */
export function choiceSearch<const TChoice extends string>(choices: readonly TChoice[]) {
  return v.fallback(v.optional(v.picklist(choices)), undefined);
}

/** The id of an object the list is filtered by (an account, a role): absent when empty. */
export const idSearch = v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))), undefined);

/**
 * The filters most lists share, as the API's list queries take them: the search text (trimmed,
 * absent when blank), the status and the account, each only when set.
 */
export function commonFilterQuery<TStatus extends string>(search: {
  q?: string | undefined;
  status?: TStatus | undefined;
  account?: string | undefined;
}): { q?: string; status?: TStatus; account_id?: string } {
  const q = search.q?.trim();
  return {
    ...(q ? { q } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.account ? { account_id: search.account } : {}),
  };
}

/** The order an address's `sort` names, or the list's default. */
export function sortOf<TColumn extends string>(
  columns: readonly TColumn[],
  sort: string | undefined,
  fallback: SortOrder<TColumn>,
): SortOrder<TColumn> {
  return (sort === undefined ? undefined : parseSort(columns, sort)) ?? fallback;
}

/** `limit` and `offset` of a 1-based page, as the API's list queries take them. */
export function pageQuery(page: number, pageSize: number): { limit: string; offset: string } {
  return { limit: String(pageSize), offset: String((page - 1) * pageSize) };
}

/**
 * The address of a list filtered by search text, a status and an account (certificates, service
 * users): its schema, the order it names, and the API query of its filters and of one page of 20.
 */
export function statusAccountListSearch<const TColumn extends string, const TStatus extends string>(
  columns: readonly TColumn[],
  statuses: readonly TStatus[],
  defaultSort: SortOrder<TColumn>,
) {
  const schema = v.object({
    q: textSearch,
    status: choiceSearch(statuses),
    account: idSearch,
    sort: sortSearch(columns),
    page: pageSearch,
  });
  type Search = v.InferOutput<typeof schema>;
  const sortOfSearch = (search: Search) => sortOf(columns, search.sort, defaultSort);
  const filterQuery = (search: Search) => ({
    sort: formatSort(sortOfSearch(search)),
    ...commonFilterQuery(search),
  });
  const listQuery = (search: Search) => ({
    ...pageQuery(search.page ?? 1, PAGE_SIZE),
    ...filterQuery(search),
  });
  return { schema, sortOf: sortOfSearch, filterQuery, listQuery };
}
