import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { TenantList } from '../../../contract/schemas/tenants.ts';
import { containsPattern } from '../../../server/db/like.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { fixedClock, insertAccount, signedInUser } from './helpers.ts';

/**
 * The accounts list's name filters match the stored lower-case name (`name_lower`, migration
 * 20261229T0900) instead of running ILIKE on every row: they must answer exactly what ILIKE answers,
 * letters beyond ASCII included, and follow a rename at once.
 */

let harness: TestApp;
let system: Caller;
const NAMES = ['Ärztekammer Süd', 'ÉCOLE ÉTÉ', 'Straße Nord', 'İstanbul Ofis', 'ǅemal Σίγμα', 'plain ascii'];

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system' });
  const partner = await insertAccount(harness, { name: 'ÖKO Partner', type: 'partner' });
  for (const name of NAMES) await insertAccount(harness, { name, partnerAccountId: partner });
});
afterAll(() => harness.close());

async function names(query: string): Promise<string[]> {
  const response = await call(harness, 'GET', `${apiPaths.tenants.list}?limit=100&${query}`, {
    token: system.token,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as TenantList).items.map((item) => item.name).sort();
}

/** What `name ilike '%text%'` finds, as the list filtered before. */
async function ilikeNames(text: string): Promise<string[]> {
  const rows = await harness.deps.db
    .selectFrom('accounts')
    .select('name')
    .where(sql<boolean>`name ilike ${containsPattern(text)}`)
    .where('type', '=', 'standard')
    .execute();
  return rows.map((row) => row.name).sort();
}

describe('the name filter', () => {
  it.each([
    'ärzte',
    'ÄRZTE',
    'süd',
    'école été',
    'STRASSE',
    'straße',
    'İSTANBUL',
    'istanbul',
    'σίγμα',
    'ǆ',
    'ASCII',
  ])('answers what ILIKE answers for "%s"', async (text) => {
    expect(await names(`type=standard&name=${encodeURIComponent(text)}`)).toEqual(await ilikeNames(text));
  });

  it('finds letters beyond ASCII in either case', async () => {
    expect(await names('name=%C3%84RZTE')).toEqual(['Ärztekammer Süd']);
    expect(await names('name=%C3%A9cole')).toEqual(['ÉCOLE ÉTÉ']);
  });

  it('follows a rename at once', async () => {
    const id = await insertAccount(harness, { name: 'Before Rename' });
    await harness.deps.db
      .updateTable('accounts')
      .set({ name: 'Nachher Umbenannt' })
      .where('id', '=', id)
      .execute();
    expect(await names('name=rename')).toEqual([]);
    expect(await names('name=UMBENANNT')).toEqual(['Nachher Umbenannt']);
  });

  it('matches the partner’s name the same way', async () => {
    expect(await names('partnerAccountNameLike=%C3%B6ko')).toEqual(NAMES.slice().sort());
  });
});
