import * as v from 'valibot';
import { parseSort } from '../sort-columns.ts';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../validation.ts';
import { MAX_PAGE_LIMIT } from './common.ts';

/** A query-string integer in [min, max]; anything else (negative, decimal, huge, text) is refused. */
export function queryInteger(min: number, max: number) {
  return v.pipe(
    v.string('invalidNumber'),
    v.regex(/^\d{1,9}$/, 'invalidNumber'),
    v.transform(Number),
    v.minValue(min, 'invalidNumber'),
    v.maxValue(max, 'invalidNumber'),
  );
}

/** The longest id a list cursor names (RESOURCE_ID_MAX_LENGTH). */
const CURSOR_ID_MAX_LENGTH = 64;

/**
 * `after=<position>:<id>`: the row `id` ends at `position` (1-based) in this list's order, so the
 * rows from `offset` on are found by seeking past its sort keys instead of skipping `offset` rows
 * (decision 024). The console sends the last row of a page it has; a stale one is ignored.
 */
export const listCursorQuery = v.optional(
  v.pipe(
    v.string('invalidValue'),
    v.description(
      '`<position>:<id>`: the row id ends at position (1-based) in this order; the page from offset is found by seeking past it instead of skipping offset rows. Ignored when that row no longer matches.',
    ),
    v.regex(/^\d{1,9}:./su, 'invalidValue'),
    v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
    v.transform((text) => {
      const colon = text.indexOf(':');
      return { position: Number(text.slice(0, colon)), id: text.slice(colon + 1) };
    }),
    v.check((cursor) => cursor.position >= 1 && cursor.id.length <= CURSOR_ID_MAX_LENGTH, 'invalidValue'),
  ),
);
export type ListCursor = NonNullable<v.InferOutput<typeof listCursorQuery>>;

/** The `after` a console sends for the row `id` at `position`. */
export function formatListCursor(cursor: ListCursor): string {
  return `${cursor.position}:${cursor.id}`;
}

/** `limit`, `offset` and `after` of every list (overview §9: at most 99999 a page). */
export const pagingQueryEntries = {
  limit: v.optional(queryInteger(1, MAX_PAGE_LIMIT)),
  offset: v.optional(queryInteger(0, 999_999_999)),
  after: listCursorQuery,
};

export type { SortDirection, SortOrder } from '../sort-columns.ts';

/** `sort=columnKey:asc|desc` (account administration §7) with the columns a list can sort by. */
export function sortQuery<const TColumn extends string>(columns: readonly TColumn[]) {
  return v.optional(
    v.pipe(
      v.string('invalidSort'),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const order = parseSort(columns, dataset.value);
        if (order) return order;
        addIssue({ message: 'invalidSort' });
        return NEVER;
      }),
    ),
  );
}

/** A free-text filter: trimmed, at most 256 characters, no control characters. */
export const textFilterQuery = v.optional(
  v.pipe(
    v.string('invalidType'),
    v.trim(),
    v.maxLength(256, 'tooLong'),
    v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
  ),
);
