import type * as v from 'valibot';
import { formatListCursor } from '../../contract/schemas/query.ts';
import { apiRequest, type QueryValue } from './api-client.ts';

/*
 * Page numbers over keyset pagination (decision 024). Every page a list answers ends in a row whose
 * id and position are remembered here; asking for a later page of the same list (same path, filters,
 * sort and page size) sends the nearest such row as `after`, and the server seeks past it instead of
 * reading and dropping every row before the page. The address still says only `page`: a cursor is a
 * hint the server ignores when its row no longer matches, so a shared or reloaded address works
 * without one, by offset.
 */

/** Lists remembered, and rows per list: enough for a session's paging, bounded however long it runs. */
const MAX_LISTS = 20;
const MAX_CURSORS_PER_LIST = 100;

/** Per list: the position (rows up to and including it) → the id of the row ending there. */
const cursors = new Map<string, Map<number, string>>();

function listKey(path: string, query: Record<string, QueryValue>): string {
  const { offset: _offset, after: _after, ...rest } = query;
  // Parameter names are ASCII: compared by code unit, not `localeCompare`, whose first use loads the
  // browser's collation data in the middle of the first list's request (a tenth of a second on a slow
  // phone).
  const parts = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${JSON.stringify(parts)}`;
}

/** The remembered row nearest before `offset` (at most at it), as the `after` of the request. */
function cursorBefore(key: string, offset: number): string | undefined {
  const known = cursors.get(key);
  if (known === undefined || offset === 0) return undefined;
  let best: number | undefined;
  for (const position of known.keys()) {
    if (position <= offset && (best === undefined || position > best)) best = position;
  }
  const id = best === undefined ? undefined : known.get(best);
  return best === undefined || id === undefined ? undefined : formatListCursor({ position: best, id });
}

function remember(key: string, position: number, id: string): void {
  // Most recently used last, so the first entry is the one to drop.
  const known = cursors.get(key) ?? new Map<number, string>();
  cursors.delete(key);
  cursors.set(key, known);
  known.set(position, id);
  if (known.size > MAX_CURSORS_PER_LIST) known.delete(known.keys().next().value as number);
  if (cursors.size > MAX_LISTS) cursors.delete(cursors.keys().next().value as string);
}

interface ListAnswer {
  items: readonly unknown[];
}

/** GET of one page of a list (`query` with `limit` and `offset`), sent after a remembered row. */
export async function apiListRequest<TSchema extends v.GenericSchema<unknown, ListAnswer>>(
  path: string,
  options: { query: Record<string, QueryValue>; schema: TSchema; signal?: AbortSignal | undefined },
): Promise<v.InferOutput<TSchema>> {
  const key = listKey(path, options.query);
  const offset = Number(options.query.offset ?? 0);
  const after = cursorBefore(key, offset);
  const answer = await apiRequest('GET', path, {
    ...options,
    query: after === undefined ? options.query : { ...options.query, after },
  });
  const last = answer.items.at(-1);
  if (typeof last === 'object' && last !== null && 'id' in last && typeof last.id === 'string') {
    remember(key, offset + answer.items.length, last.id);
  }
  return answer;
}
