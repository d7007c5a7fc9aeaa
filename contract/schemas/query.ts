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

/** `limit` and `offset` of every list (overview §9: at most 99999 a page). */
export const pagingQueryEntries = {
  limit: v.optional(queryInteger(1, MAX_PAGE_LIMIT)),
  offset: v.optional(queryInteger(0, 999_999_999)),
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
