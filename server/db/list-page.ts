import { type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { LIST_TOTAL_WINDOW } from '../../contract/constants.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import type { ListCursor } from '../../contract/schemas/query.ts';
import { orderByKeys, type SortKeys } from './keyset.ts';

/**
 * One page of every list (decision 024). Two costs grew with the table and are gone here:
 * - The total counts at most `window` rows past the page's start (`count` over a `limit window + 1`
 *   subquery) instead of every matching row; a list longer than that answers `offset + window` with
 *   `total_is_lower_bound`. Each page moves the window with it, so the pager always knows the pages
 *   ahead, and a short list (most lists) is counted exactly.
 * - A page after a row the caller names (`after`: the last row of a page it has, and that row's
 *   position) seeks past that row's sort keys through the sort index instead of reading and dropping
 *   every row before it, as `offset` does; the page numbers stay the same, only the way to them changes.
 */

export interface PageRequest {
  limit: number;
  /** Rows before the page, in the list's order. */
  offset: number;
  /** The row ending at `after.position`, at or before `offset`; ignored when it no longer matches. */
  after?: ListCursor | undefined;
}

/** A list's query as validated: the page it asks for, its sort, and its filters. */
interface ListQuery<S> {
  limit?: number | undefined;
  offset?: number | undefined;
  after?: ListCursor | undefined;
  sort?: S | undefined;
}

/**
 * A list's validated query split into the page it asks for, with the defaults every list shares
 * filled in (`DEFAULT_LIST_LIMIT` rows from the start, in `defaultSort`), and what is left: its filters.
 */
export function pageAndFilters<S, Q extends ListQuery<S>>(
  query: Q,
  defaultSort: S,
): { page: PageRequest & { sort: S }; filters: Omit<Q, keyof ListQuery<S>> } {
  const { limit = DEFAULT_LIST_LIMIT, offset = 0, after, sort = defaultSort, ...filters } = query;
  return { page: { limit, offset, after, sort }, filters };
}

export interface BoundedTotal {
  total: number;
  /** True when more rows match than `total` says: the count stopped at its window. */
  total_is_lower_bound: boolean;
}

/** A page of a list as its endpoint answers it. */
export type ListPageOf<T> = { items: T[] } & BoundedTotal;

export interface ListPageOptions<DB, TB extends keyof DB, O> {
  db: QueryExecutorProvider;
  /** The matching rows, unordered and without a selection. */
  matching: SelectQueryBuilder<DB, TB, O>;
  /**
   * The list's sort keys, all in `direction` and never null, the last one the unique id the cursor
   * names. Null for an order that cannot seek (mixed directions, keys that may be null): the page is
   * then cut by `offset`, and `read` adds the order.
   */
  keys: SortKeys | null;
  /** The unique column the cursor's id names, when it is not the last key (the audit log's `seq`). */
  idKey?: RawBuilder<unknown>;
  direction: 'asc' | 'desc';
  page: PageRequest;
  /** How far past the page's start the total is counted exactly; a setting only for tests. */
  window?: number;
}

/** `query` with only the rows after the cursor's row in `keys` order (a row-value comparison). */
function seek<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  matching: SelectQueryBuilder<DB, TB, O>,
  keys: SortKeys,
  direction: 'asc' | 'desc',
  idKey: RawBuilder<unknown>,
  id: string,
): SelectQueryBuilder<DB, TB, O> {
  // The cursor's keys are read in the same statement, so they keep their types and precision
  // (timestamps in microseconds) and the caller never hands the server a value to compare.
  const cursorKeys = matching
    .where(sql<boolean>`${idKey} = ${id}`)
    .select(keys.map((key, index) => key.as(`k${index}`)) as never);
  const after = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  return query.where(sql<boolean>`(${sql.join(keys)}) ${after} (${cursorKeys})`);
}

/**
 * How `listPage` reads the cut page: the query adding the selection (or order), which `listPage` then
 * runs with the page's count in the same statement; or, for a page read some other way (wrapped in
 * joins as a subquery, where the count cannot ride along), the rows read, and the count runs beside it.
 */
export type PageReader<DB, TB extends keyof DB, O, Row> = (
  cut: SelectQueryBuilder<DB, TB, O>,
) => SelectQueryBuilder<DB, TB, Row> | Promise<Row[]>;

/** The bounded count's columns on every row of a page read in one statement. */
interface CountColumns {
  list_window_counted: number;
  list_cursor_found: boolean;
}

/** A page's rows with the count of its window, and whether the cursor's row still matches. */
interface CountedPage<Row> {
  rows: Row[];
  counted: number;
  found: boolean;
}

/**
 * The page of `options.matching` that `options.page` asks for, in `keys` order, read by `read`, and
 * its bounded total.
 */
export async function listPage<DB, TB extends keyof DB, O, Row>(
  options: ListPageOptions<DB, TB, O>,
  read: PageReader<DB, TB, O, Row>,
): Promise<{ rows: Row[] } & BoundedTotal> {
  const { db, matching, keys, direction, page } = options;
  // A page longer than the window (a picker asking for every row) still counts its own rows.
  const window = Math.max(options.window ?? LIST_TOTAL_WINDOW, page.limit);
  const idKey = options.idKey ?? keys?.at(-1);
  const after =
    keys !== null && idKey !== undefined && page.after !== undefined && page.after.position <= page.offset
      ? page.after
      : null;

  /** The rows from the page's start on, and how many of them to skip. */
  const fromStart = (useCursor: boolean): [SelectQueryBuilder<DB, TB, O>, number] =>
    useCursor && after !== null && keys !== null && idKey !== undefined
      ? [seek(matching, matching, keys, direction, idKey, after.id), page.offset - after.position]
      : [matching, page.offset];

  const cutPage = (useCursor: boolean) => {
    const [rows, skip] = fromStart(useCursor);
    const ordered = keys === null ? rows : orderByKeys(rows, keys, direction);
    return ordered.offset(skip).limit(page.limit);
  };

  /** How many rows of the window match (at most `window + 1`), and whether the cursor's row does. */
  const countExpressions = (useCursor: boolean) => {
    const [rows, skip] = fromStart(useCursor);
    // Which rows are skipped does not change how many follow, so the count needs no order and the
    // planner may take the cheapest scan.
    const window_ = rows
      .select(sql.lit(1).as('one'))
      .offset(skip)
      .limit(window + 1);
    const found =
      useCursor && after !== null && idKey !== undefined
        ? sql<boolean>`exists (${matching.select(sql.lit(1).as('one')).where(sql<boolean>`${idKey} = ${after.id}`)})`
        : sql<boolean>`true`;
    return { counted: sql<number>`(select count(*) from (${window_}) as w)::int`, found };
  };

  const countWindow = async (useCursor: boolean) => {
    const { counted, found } = countExpressions(useCursor);
    const result = await sql<{ counted: number; found: boolean }>`
      select ${counted} as counted, ${found} as found`.execute(db);
    const row = result.rows[0];
    if (row === undefined) throw new Error('A count answered no row.');
    return row;
  };

  const readCounted = async (useCursor: boolean): Promise<CountedPage<Row>> => {
    const reading = read(cutPage(useCursor));
    if (reading instanceof Promise) {
      const [rows, count] = await Promise.all([reading, countWindow(useCursor)]);
      return { rows, ...count };
    }
    // One statement: the count is an uncorrelated subquery, run once, its value on every row. Each
    // statement a list saves is a round trip, a plan and a pool connection less per request.
    const { counted, found } = countExpressions(useCursor);
    const counting = reading.select([
      counted.as('list_window_counted'),
      found.as('list_cursor_found'),
    ]) as unknown as SelectQueryBuilder<DB, TB, Row & CountColumns>;
    const withCount = await counting.execute();
    const first = withCount[0];
    if (first === undefined) {
      // No row to carry the count: from the list's start the list is empty; elsewhere count apart.
      const empty = page.offset === 0 && !(useCursor && after !== null);
      return empty ? { rows: [], counted: 0, found: true } : { rows: [], ...(await countWindow(useCursor)) };
    }
    const rows = withCount.map(({ list_window_counted, list_cursor_found, ...row }) => row as Row);
    return { rows, counted: first.list_window_counted, found: first.list_cursor_found };
  };

  const counted = await readCounted(true);
  // The cursor's row was deleted or no longer matches: its position says nothing any more, so the
  // page is found by its offset, as it would have been without a cursor.
  const { rows: pageRows, counted: inWindow } = counted.found ? counted : await readCounted(false);
  if (inWindow > window) return { rows: pageRows, total: page.offset + window, total_is_lower_bound: true };
  if (inWindow > 0 || page.offset === 0) {
    return { rows: pageRows, total: page.offset + inWindow, total_is_lower_bound: false };
  }
  // A page past the end (rows removed meanwhile, an old address): the caller moves to the last page,
  // so it needs the list's length, which is less than the offset: counting up to the offset finds it.
  const before = matching.select(sql.lit(1).as('one')).limit(page.offset);
  const length = await sql<{ counted: number }>`
    select count(*)::int as counted from (${before}) as w`.execute(db);
  return { rows: pageRows, total: length.rows[0]?.counted ?? 0, total_is_lower_bound: false };
}
