import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNT_NAME } from '../../../contract/constants.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { TenantList, TenantSummary } from '../../../contract/schemas/tenants.ts';
import { TENANT_SORT_COLUMNS, type TenantSortColumn } from '../../../contract/sort-columns.ts';
import { errorOf, fieldError } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type AccountFixture, daysFromToday, fixedClock, insertAccount, signedInUser } from './helpers.ts';

/**
 * The accounts list: who sees what, every filter, every sort order both ways, paging and totals, and
 * the 400 for every kind of bad query.
 */

let harness: TestApp;
let system: Caller;
let partner: Caller;
let accountUser: Caller;
type FixtureKey = 'alpha' | 'beta' | 'acmeCorp' | 'acmeLabs' | 'zeta' | 'delta' | 'gamma';
const ids = {} as Record<FixtureKey | 'system', string>;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system' });
  // key, name, friendly identifier, start and end in days from today, then what sets it apart.
  type Fixture = [FixtureKey, string, string, number, number, AccountFixture & { partner?: FixtureKey }];
  const fixtures: Fixture[] = [
    ['alpha', 'Alpha Partners', 'alpha-partners', -400, 700, { type: 'partner' }],
    ['beta', 'Beta Resellers', 'beta-resellers', -300, 500, { type: 'partner' }],
    ['acmeCorp', 'Acme Corp', 'acme-corp', -100, 10, { partner: 'alpha' }],
    ['acmeLabs', 'acme labs', 'acme-labs', -90, 45, { partner: 'alpha', active: false }],
    ['zeta', 'Zeta 100%_off', 'zeta-pct', -80, 200, {}],
    ['delta', 'Delta Child', 'delta-child', -70, -5, { partner: 'beta' }],
    [
      'gamma',
      'Gamma Federated',
      'gamma-fed',
      -60,
      60,
      { partner: 'beta', federation: { status: 'linked', accountId: 'ol-77' } },
    ],
  ];
  for (const [key, name, friendlyIdentifier, from, to, { partner, ...rest }] of fixtures) {
    ids[key] = await insertAccount(harness, {
      name,
      friendlyIdentifier,
      serviceFrom: daysFromToday(from),
      serviceTo: daysFromToday(to),
      partnerAccountId: partner === undefined ? null : ids[partner],
      ...rest,
    });
  }
  ids.system = system.accountId;
  partner = await signedInUser(harness, { accessScope: 'partner', accountId: ids.alpha });
  accountUser = await signedInUser(harness, { accessScope: 'account', accountId: ids.acmeCorp });
  await harness.deps.db
    .insertInto('user_accounts')
    .values({ user_id: accountUser.id, account_id: ids.zeta })
    .execute();
});
afterAll(() => harness.close());

async function list(caller: Caller, query = ''): Promise<TenantList> {
  const response = await call(harness, 'GET', `${apiPaths.tenants.list}${query}`, { token: caller.token });
  expect(response.status).toBe(200);
  return (await response.json()) as TenantList;
}

const namesOf = (page: TenantList) => page.items.map((item) => item.name);

async function namesFor(query: string, caller = system): Promise<string[]> {
  return namesOf(await list(caller, `?limit=100&${query}`)).sort();
}

describe('who sees which accounts', () => {
  it('shows system scope every account, the System Account included', async () => {
    const page = await list(system, '?limit=100');
    expect(page.total).toBe(8);
    expect(namesOf(page)).toContain(SYSTEM_ACCOUNT_NAME);
  });

  it('shows a partner its own account and the accounts under it', async () => {
    expect(await namesFor('', partner)).toEqual(['Acme Corp', 'Alpha Partners', 'acme labs']);
  });

  it('shows an account user its primary account and the accounts it was added to', async () => {
    expect(await namesFor('', accountUser)).toEqual(['Acme Corp', 'Zeta 100%_off']);
  });

  it('refuses callers without a token or without the view-account permission', async () => {
    expect((await call(harness, 'GET', apiPaths.tenants.list)).status).toBe(401);
    const noRoles = await signedInUser(harness, { accessScope: 'account', roles: [], accountId: ids.zeta });
    const response = await call(harness, 'GET', apiPaths.tenants.list, { token: noRoles.token });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toEqual({
      status: 403,
      message: 'You do not have permission to view account.',
      code: 'forbidden',
    });
  });
});

describe('a listed account', () => {
  it('carries its partner’s name and its federation', async () => {
    const page = await list(system, '?name=gamma');
    expect(page.items).toEqual([
      {
        id: ids.gamma,
        name: 'Gamma Federated',
        display_name: 'Gamma Federated',
        active: true,
        friendly_identifier: 'gamma-fed',
        service_period: { from: daysFromToday(-60), to: daysFromToday(60) },
        locale: 'en_US',
        type: 'standard',
        system_account: false,
        partner_account_id: ids.beta,
        partner_account_name: 'Beta Resellers',
        federated_account_id: 'ol-77',
        federation_status: 'linked',
        federated_account_details_url: `https://identity.example.com/accounts/${ids.gamma}`,
        version: 1,
      } satisfies TenantSummary,
    ]);
  });
});

describe('filters', () => {
  it.each([
    [
      'active=true',
      [
        'Acme Corp',
        'Alpha Partners',
        'Beta Resellers',
        'Delta Child',
        'Gamma Federated',
        SYSTEM_ACCOUNT_NAME,
        'Zeta 100%_off',
      ],
    ],
    ['active=false', ['acme labs']],
    ['name=ACME', ['Acme Corp', 'acme labs']],
    ['name=100%25', ['Zeta 100%_off']],
    ['name=_', ['Zeta 100%_off']],
    ['name=%25', ['Zeta 100%_off']],
    ['name=%20acme%20', ['Acme Corp', 'acme labs']],
    ['friendly_identifier=ACME-', ['Acme Corp', 'acme labs']],
    ['type=partner', ['Alpha Partners', 'Beta Resellers']],
    ['type=system', [SYSTEM_ACCOUNT_NAME]],
    ['partnerAccountNameLike=alpha', ['Acme Corp', 'acme labs']],
    [
      'partnerAccountNameLike=SYS',
      ['Alpha Partners', 'Beta Resellers', SYSTEM_ACCOUNT_NAME, 'Zeta 100%_off'],
    ],
    ['partnerAccountNameLike=resell', ['Delta Child', 'Gamma Federated']],
    [`endDateFrom=${daysFromToday(10)}&endDateTo=${daysFromToday(45)}`, ['Acme Corp', 'acme labs']],
    [`endDateFrom=${daysFromToday(500)}`, ['Alpha Partners', 'Beta Resellers']],
    [`endDateTo=${daysFromToday(0)}`, ['Delta Child']],
    ['endsWithinDays=45', ['Acme Corp', 'acme labs']],
    ['endsWithinDays=44', ['Acme Corp']],
    ['endsWithinDays=0', []],
    ['active=true&endsWithinDays=60', ['Acme Corp', 'Gamma Federated']],
    ['name=a&type=standard&partnerAccountNameLike=beta', ['Delta Child', 'Gamma Federated']],
  ])('%s', async (query, expected) => {
    expect(await namesFor(query)).toEqual([...expected].sort());
  });

  it('counts what the filters leave, not what the page shows', async () => {
    const page = await list(system, '?name=acme&limit=1');
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(2);
  });

  it('narrows within what the caller sees', async () => {
    expect(await namesFor('name=a', partner)).toEqual(['Acme Corp', 'Alpha Partners', 'acme labs']);
    expect(await namesFor('partnerAccountNameLike=beta', partner)).toEqual([]);
  });
});

/** The order the server promises, computed independently: the column, then name, then id. */
function expectedOrder(items: TenantSummary[], column: TenantSortColumn, direction: 'asc' | 'desc') {
  const keys = (item: TenantSummary): (string | number)[] => {
    const name = item.name.toLowerCase();
    switch (column) {
      case 'name':
        return [name];
      case 'status':
        return [item.active ? 0 : 1, name];
      case 'friendly_identifier':
        return [item.friendly_identifier];
      case 'start_date':
        return [item.service_period.from];
      case 'end_date':
        return [item.service_period.to ?? '9999-12-31'];
      case 'type':
        return [item.type, name];
      case 'partner_account_name':
        return [(item.partner_account_name ?? 'system').toLowerCase(), name];
    }
  };
  const compare = (a: TenantSummary, b: TenantSummary) => {
    const left = [...keys(a), a.id];
    const right = [...keys(b), b.id];
    for (let index = 0; index < left.length; index += 1) {
      const [x, y] = [left[index] ?? '', right[index] ?? ''];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  const sorted = [...items].sort(compare);
  return (direction === 'asc' ? sorted : sorted.reverse()).map((item) => item.name);
}

describe('sorting', () => {
  const cases = TENANT_SORT_COLUMNS.flatMap((column) =>
    (['asc', 'desc'] as const).map((direction) => [column, direction] as const),
  );

  it.each(cases)('by %s %s', async (column, direction) => {
    const all = await list(system, '?limit=100');
    const sorted = await list(system, `?limit=100&sort=${column}:${direction}`);
    expect(namesOf(sorted)).toEqual(expectedOrder(all.items, column, direction));
  });

  it('sorts by name ascending when no order is asked for', async () => {
    const page = await list(system, '?limit=100');
    expect(namesOf(page)).toEqual(expectedOrder(page.items, 'name', 'asc'));
    expect(namesOf(page)[0]).toBe('Acme Corp');
  });

  it('puts accounts without an end date last going up and first going down', async () => {
    expect(namesOf(await list(system, '?limit=100&sort=end_date:asc')).at(-1)).toBe(SYSTEM_ACCOUNT_NAME);
    expect(namesOf(await list(system, '?limit=100&sort=end_date:desc'))[0]).toBe(SYSTEM_ACCOUNT_NAME);
  });
});

describe('paging', () => {
  it('pages through every account exactly once, in order, with a stable total', async () => {
    for (const column of TENANT_SORT_COLUMNS) {
      const whole = namesOf(await list(system, `?limit=100&sort=${column}:desc`));
      const pages: string[] = [];
      for (let offset = 0; offset < whole.length; offset += 3) {
        const page = await list(system, `?limit=3&offset=${offset}&sort=${column}:desc`);
        expect(page.total).toBe(whole.length);
        pages.push(...namesOf(page));
      }
      expect(pages).toEqual(whole);
    }
  });

  it('answers twenty accounts a page by default and an empty page past the end', async () => {
    const many = await signedInUser(harness, { accessScope: 'partner', accountId: ids.beta });
    for (let index = 0; index < 22; index += 1) {
      await insertAccount(harness, {
        name: `Bulk ${String(index).padStart(2, '0')}`,
        partnerAccountId: ids.beta,
      });
    }
    const first = await list(many);
    expect(first.items).toHaveLength(20);
    expect(first.total).toBe(25);
    const beyond = await list(many, '?offset=25');
    expect(beyond).toEqual({ items: [], total: 25, total_is_lower_bound: false });
  });
});

describe('bad queries', () => {
  it.each([
    ['sort=colour:asc', 'sort: must be columnKey:asc or columnKey:desc with a sortable column'],
    ['sort=name:up', 'sort: must be columnKey:asc or columnKey:desc with a sortable column'],
    ['limit=-1', 'limit: must be a whole number in the allowed range'],
    ['limit=0', 'limit: must be a whole number in the allowed range'],
    ['limit=100000', 'limit: must be a whole number in the allowed range'],
    ['limit=1.5', 'limit: must be a whole number in the allowed range'],
    ['limit=10&limit=20', 'limit: must be a whole number in the allowed range'],
    ['offset=-3', 'offset: must be a whole number in the allowed range'],
    ['offset=99999999999', 'offset: must be a whole number in the allowed range'],
    ['endDateFrom=2026-02-30', 'endDateFrom: must be a date as YYYY-MM-DD'],
    ['endDateTo=tomorrow', 'endDateTo: must be a date as YYYY-MM-DD'],
    ['endsWithinDays=3651', 'endsWithinDays: must be a whole number in the allowed range'],
    ['endsWithinDays=soon', 'endsWithinDays: must be a whole number in the allowed range'],
    [`name=${'n'.repeat(257)}`, 'name: is too long'],
    [`partnerAccountNameLike=${'p'.repeat(257)}`, 'partnerAccountNameLike: is too long'],
    ['active=maybe', 'active: has a value that is not allowed'],
    ['type=galaxy', 'type: has a value that is not allowed'],
  ])('%s → 400', async (query, message) => {
    const response = await call(harness, 'GET', `${apiPaths.tenants.list}?${query}`, { token: system.token });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual(fieldError(message));
  });

  it('refuses the same bad queries on the export', async () => {
    const response = await call(harness, 'GET', `${apiPaths.tenants.export}?sort=colour:asc`, {
      token: system.token,
    });
    expect(response.status).toBe(400);
  });

  it('names an over-long account id instead of looking it up', async () => {
    const response = await call(harness, 'GET', apiPaths.tenants.byId('x'.repeat(65)), {
      token: system.token,
    });
    expect(await errorOf(response)).toEqual(fieldError('id: is too long'));
  });
});

describe('sorting by partner name when partners share a name', () => {
  it('merges their accounts by name, and those without a partner with a partner called "System"', async () => {
    const twin = await insertAccount(harness, { name: 'ALPHA PARTNERS', type: 'partner' });
    await insertAccount(harness, { name: 'Aardvark', partnerAccountId: twin });
    const namedSystem = await insertAccount(harness, { name: 'System', type: 'partner' });
    await insertAccount(harness, { name: 'Mid Market', partnerAccountId: namedSystem });
    const all = await list(system, '?limit=1000');
    for (const direction of ['asc', 'desc'] as const) {
      const expected = expectedOrder(all.items, 'partner_account_name', direction);
      expect(namesOf(await list(system, `?limit=1000&sort=partner_account_name:${direction}`))).toEqual(
        expected,
      );
      const paged: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 4) {
        paged.push(
          ...namesOf(await list(system, `?limit=4&offset=${offset}&sort=partner_account_name:${direction}`)),
        );
      }
      expect(paged).toEqual(expected);
    }
  });
});
