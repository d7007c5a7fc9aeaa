import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { formatListCursor } from '../../../contract/schemas/query.ts';
import type { TenantList } from '../../../contract/schemas/tenants.ts';
import { TENANT_SORT_COLUMNS } from '../../../contract/sort-columns.ts';
import { listPage } from '../../../server/db/list-page.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { daysFromToday, fixedClock, insertAccount, signedInUser } from './helpers.ts';

/**
 * The list helper (server/db/list-page.ts) on the accounts list: pages reached through a cursor are
 * the pages `offset` gives in every sort order, ties included, and the total is exact within its
 * window and a lower bound beyond it, filters applied.
 */

let harness: TestApp;
let system: Caller;
const ACCOUNTS = 23;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system' });
  const partner = await insertAccount(harness, { name: 'Tie Partner', type: 'partner' });
  // Few distinct names, dates and states: most sort keys tie, so the id decides.
  for (let n = 0; n < ACCOUNTS; n += 1) {
    await insertAccount(harness, {
      name: `Tie ${n % 3}`,
      active: n % 4 !== 0,
      serviceFrom: daysFromToday(-(n % 2)),
      serviceTo: n % 5 === 0 ? null : daysFromToday(n % 3),
      partnerAccountId: n % 2 === 0 ? partner : null,
    });
  }
});
afterAll(() => harness.close());

async function list(query: string): Promise<TenantList> {
  const response = await call(harness, 'GET', `${apiPaths.tenants.list}?${query}`, { token: system.token });
  expect(response.status).toBe(200);
  return (await response.json()) as TenantList;
}

const idsOf = (page: TenantList) => page.items.map((item) => item.id);

describe('pages after a cursor', () => {
  const PAGE = 4;
  for (const column of TENANT_SORT_COLUMNS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`equal the pages by offset sorted by ${column} ${direction}`, async () => {
        const query = `sort=${column}:${direction}&name=tie&limit=${PAGE}`;
        const everything = await list(`sort=${column}:${direction}&name=tie&limit=100`);
        expect(everything.total).toBe(ACCOUNTS + 1);
        let position = 0;
        let cursor = '';
        while (position < everything.total) {
          const byOffset = await list(`${query}&offset=${position}`);
          const byCursor = await list(`${query}&offset=${position}${cursor}`);
          expect(idsOf(byCursor)).toEqual(idsOf(byOffset));
          expect(idsOf(byCursor)).toEqual(idsOf(everything).slice(position, position + PAGE));
          expect(byCursor.total).toBe(everything.total);
          position += byCursor.items.length;
          const last = byCursor.items.at(-1);
          if (last === undefined) break;
          cursor = `&after=${encodeURIComponent(formatListCursor({ position, id: last.id }))}`;
        }
        // A cursor two pages back still lands on the page asked for.
        const back = everything.items[PAGE - 1];
        if (back === undefined) throw new Error('Too few accounts.');
        const jump = await list(
          `${query}&offset=${3 * PAGE}&after=${encodeURIComponent(formatListCursor({ position: PAGE, id: back.id }))}`,
        );
        expect(idsOf(jump)).toEqual(idsOf(everything).slice(3 * PAGE, 4 * PAGE));
      });
    }
  }

  it('falls back to the offset when the cursor’s row no longer matches', async () => {
    const everything = await list('sort=name:asc&name=tie&limit=100');
    const stale = formatListCursor({ position: 4, id: 'no-such-account' });
    const page = await list(`sort=name:asc&name=tie&limit=4&offset=8&after=${encodeURIComponent(stale)}`);
    expect(idsOf(page)).toEqual(idsOf(everything).slice(8, 12));
    expect(page.total).toBe(everything.total);
  });

  it('refuses a cursor that is not a position and an id', async () => {
    for (const after of ['abc', '0:x', ':x', '4:', `4:${'x'.repeat(65)}`, '4:a%0Ab']) {
      const response = await call(harness, 'GET', `${apiPaths.tenants.list}?after=${after}`, {
        token: system.token,
      });
      expect(response.status, after).toBe(400);
      expect((await errorOf(response)).field).toBe('after');
    }
  });
});

describe('the bounded total', () => {
  const page = (offset: number, window: number, name = 'Tie%') =>
    listPage(
      {
        db: harness.deps.db,
        matching: harness.deps.db.selectFrom('accounts as a').where('a.name', 'like', name),
        keys: [sql`lower(${sql.ref('a.name')})`, sql.ref('a.id')],
        direction: 'asc',
        page: { limit: 5, offset },
        window,
      },
      (cut) => cut.select('a.id').execute(),
    );

  it('is exact while the rows past the page’s start fit the window', async () => {
    expect(await page(0, ACCOUNTS + 1)).toMatchObject({ total: ACCOUNTS + 1, total_is_lower_bound: false });
    expect(await page(20, 10)).toMatchObject({ total: ACCOUNTS + 1, total_is_lower_bound: false });
  });

  it('is a lower bound counted from the page’s start once more rows match', async () => {
    const first = await page(0, 10);
    expect(first).toMatchObject({ total: 10, total_is_lower_bound: true });
    expect(first.rows).toHaveLength(5);
    expect(await page(5, 10)).toMatchObject({ total: 15, total_is_lower_bound: true });
  });

  it('counts only the rows the filter matches', async () => {
    expect(await page(0, 10, 'Tie 1')).toMatchObject({ total: 8, total_is_lower_bound: false });
  });

  it('gives the list’s length for a page past its end', async () => {
    const beyond = await page(40, 10);
    expect(beyond).toMatchObject({ rows: [], total: ACCOUNTS + 1, total_is_lower_bound: false });
  });
});
