import * as v from 'valibot';
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

/** `limit` and `offset` of every list (overview §9: at most 99999 a page). */
export const pagingQueryEntries = {
  limit: v.optional(queryInteger(1, MAX_PAGE_LIMIT)),
  offset: v.optional(queryInteger(0, 999_999_999)),
};

export type SortDirection = 'asc' | 'desc';
export interface SortOrder<TColumn extends string> {
  column: TColumn;
  direction: SortDirection;
}

/** `sort=columnKey:asc|desc` (account administration §7) with the columns a list can sort by. */
export function sortQuery<const TColumn extends string>(columns: readonly TColumn[]) {
  const pattern = new RegExp(`^(${columns.join('|')}):(asc|desc)$`);
  return v.optional(
    v.pipe(
      v.string('invalidSort'),
      v.regex(pattern, 'invalidSort'),
      v.transform((value): SortOrder<TColumn> => {
        const [column, direction] = value.split(':') as [TColumn, SortDirection];
        return { column, direction };
      }),
    ),
  );
}

/** The `columnKey:direction` text of a sort order, for building a query string. */
export function formatSort<TColumn extends string>(order: SortOrder<TColumn>): string {
  return `${order.column}:${order.direction}`;
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
