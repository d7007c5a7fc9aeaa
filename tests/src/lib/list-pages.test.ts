import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listSchema } from '../../../contract/schemas/common.ts';
import { apiListRequest } from '../../../src/lib/list-pages.ts';
import { json, mockApi } from '../support.tsx';

const PATH = '/account/ui-api/v1/things';
const schema = listSchema(v.object({ id: v.string() }));

afterEach(() => vi.unstubAllGlobals());

/** A list of 100 things answering any page, recording the `after` each request sent. */
function things() {
  const sent: (string | null)[] = [];
  mockApi({
    [`GET ${PATH}`]: ({ url }) => {
      sent.push(url.searchParams.get('after'));
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const items = Array.from({ length: Math.max(0, Math.min(limit, 100 - offset)) }, (_, n) => ({
        id: `thing-${offset + n}`,
      }));
      return json({ items, total: 100, total_is_lower_bound: false });
    },
  });
  return sent;
}

const page = (offset: number, sort = 'name:asc') =>
  apiListRequest(PATH, { query: { limit: '10', offset: String(offset), sort }, schema });

describe('pages of a list', () => {
  it('go on after the last row of the nearest page before them', async () => {
    const sent = things();
    await page(0);
    await page(10);
    await page(40);
    expect(sent).toEqual([null, '10:thing-9', '20:thing-19']);
  });

  it('are asked for by offset alone for another order, or before any remembered row', async () => {
    const sent = things();
    await page(0, 'name:desc');
    await page(30, 'created:asc');
    await page(0, 'name:desc');
    expect(sent).toEqual([null, null, null]);
  });

  it('are one list whatever order its parameters come in', async () => {
    const sent = things();
    await apiListRequest(PATH, { query: { sort: 'name:asc', limit: '10', offset: '0', q: 'a' }, schema });
    await apiListRequest(PATH, { query: { q: 'a', offset: '10', limit: '10', sort: 'name:asc' }, schema });
    expect(sent).toEqual([null, '10:thing-9']);
  });
});
