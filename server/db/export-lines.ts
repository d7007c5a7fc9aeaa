import type { Kysely, SelectQueryBuilder } from 'kysely';
import { EXPORT_BATCH_SIZE } from '../http/csv-stream.ts';
import { copyOutLines } from './copy-out.ts';
import { keysetBatches, orderByKeys, type SortKeys } from './keyset.ts';
import type { Database } from './schema.ts';

/**
 * An export's lines, written by the database (decision 027): `rows()` selects one text column
 * `line` per row. PostgreSQL streams them through one COPY in `keys` order; PGlite, a single backend
 * every other request waits for, reads them in keyset batches (`lineBatches`).
 */
export function exportLines<DB, TB extends keyof DB>(
  db: Kysely<Database>,
  rows: () => SelectQueryBuilder<DB, TB, { line: string }>,
  keys: SortKeys,
  direction: 'asc' | 'desc',
): AsyncGenerator<string | Uint8Array, void, undefined> {
  return copyOutLines(db, orderByKeys(rows(), keys, direction)) ?? lineBatches(rows, keys, direction);
}

/** The lines of `rows()` in `keys` order, `EXPORT_BATCH_SIZE` per query, each batch one piece of text. */
export async function* lineBatches<DB, TB extends keyof DB>(
  rows: () => SelectQueryBuilder<DB, TB, { line: string }>,
  keys: SortKeys,
  direction: 'asc' | 'desc',
): AsyncGenerator<string, void, undefined> {
  for await (const batch of keysetBatches(rows, keys, direction, EXPORT_BATCH_SIZE)) {
    yield batch.map((row) => row.line).join('');
  }
}
