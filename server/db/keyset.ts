import { type Expression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

/** Sort keys of a list, most significant first; the last is always the unique id (the tie-breaker). */
export type SortKeys = readonly RawBuilder<unknown>[];

/** `query` ordered by every key of `keys` in `direction`. */
export function orderByKeys<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  keys: SortKeys,
  direction: 'asc' | 'desc',
): SelectQueryBuilder<DB, TB, O> {
  let ordered = query;
  for (const key of keys) ordered = ordered.orderBy(key, direction);
  return ordered;
}

/**
 * The rows of `rows()` in `keys` order, `batchSize` per query (CSV exports). Each batch continues
 * after the last row's keys (keyset pagination), so an export never holds more than one batch and
 * never re-reads the rows before it, as `offset` would. The keys must end in a unique column and
 * never be null.
 */
export async function* keysetBatches<DB, TB extends keyof DB, O>(
  rows: () => SelectQueryBuilder<DB, TB, O>,
  keys: SortKeys,
  direction: 'asc' | 'desc',
  batchSize: number,
): AsyncGenerator<O[], void, undefined> {
  const after = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  let last: unknown[] | null = null;
  while (true) {
    // Kysely cannot work out the selection of a builder generic in its tables; this is what it selects.
    let query = rows().select(
      sql<unknown[]>`jsonb_build_array(${sql.join(keys)})`.as('sort_keys'),
    ) as unknown as SelectQueryBuilder<DB, TB, O & { sort_keys: unknown[] }>;
    if (last !== null) {
      const values: Expression<unknown>[] = last.map((value) => sql.val(value));
      query = query.where(sql<boolean>`(${sql.join(keys)}) ${after} (${sql.join(values)})`);
    }
    const batch = await orderByKeys(query, keys, direction).limit(batchSize).execute();
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    last = batch[batch.length - 1]?.sort_keys ?? null;
  }
}
