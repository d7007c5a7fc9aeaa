import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { TenantList } from '../../../contract/schemas/tenants.ts';
import { TENANT_CSV_COLUMNS } from '../../../contract/tenant-csv.ts';
import { parseCsv, parseTenantCsv } from '../../../e2e/support/csv.ts';
import { csvCell, csvLine } from '../../../server/http/csv-stream.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { daysFromToday, fixedClock, insertAccount, signedInUser, TODAY } from './helpers.ts';

/** The CSV export of the accounts list and the expiry counts of the banners. */

let harness: TestApp;
let system: Caller;
let partner: Caller;
let partnerAccount: string;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  system = await signedInUser(harness, { accessScope: 'system' });
  partnerAccount = await insertAccount(harness, { name: 'Export Partner', type: 'partner' });
  partner = await signedInUser(harness, { accessScope: 'partner', accountId: partnerAccount });
});
afterAll(() => harness.close());

const exportCsv = (query: string, caller = system) =>
  call(harness, 'GET', `${apiPaths.tenants.export}${query}`, { token: caller.token });

describe('cells', () => {
  it.each([
    ['plain', 'plain'],
    ['Smith, Jones', '"Smith, Jones"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1+1', "'=1+1"],
    ['+49 30', "'+49 30"],
    ['-Minus Corp', "'-Minus Corp"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTabbed', `"'\tTabbed"`],
    // Quoted for the spreadsheets that split on semicolons or tabs, where the rest would be a formula.
    ['Csv;-ABS(1)', '"Csv;-ABS(1)"'],
    ['Tab\t=1+1', '"Tab\t=1+1"'],
    ['\rReturn', `"'\rReturn"`],
    ['=HYPERLINK("https://evil.example", "x")', `"'=HYPERLINK(""https://evil.example"", ""x"")"`],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('GET tenants/export', () => {
  it('answers a CSV attachment named for today, with a header row', async () => {
    const response = await exportCsv('?type=system');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="accounts-${TODAY}.csv"`);
    const text = await response.text();
    expect(text.startsWith(`${TENANT_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(parseCsv(text)).toEqual([
      [...TENANT_CSV_COLUMNS],
      ['System Account', 'active', 'system', TODAY, '', 'system', '', '', ''],
    ]);
  });

  it('quotes what needs quotes and defuses what a spreadsheet would run', async () => {
    await insertAccount(harness, {
      name: '-Quoted, "Hostile" Ltd',
      friendlyIdentifier: '@hostile',
      partnerAccountId: partnerAccount,
      active: false,
      serviceFrom: daysFromToday(-1),
      serviceTo: daysFromToday(1),
      federation: { status: 'linked', accountId: '=HYPERLINK("https://evil.example")' },
    });
    const text = await (await exportCsv('?name=hostile')).text();
    expect(text).toContain(`"'-Quoted, ""Hostile"" Ltd",inactive,'@hostile,`);
    expect(parseTenantCsv(text)).toEqual([
      {
        name: `'-Quoted, "Hostile" Ltd`,
        status: 'inactive',
        friendly_identifier: "'@hostile",
        start_date: daysFromToday(-1),
        end_date: daysFromToday(1),
        type: 'standard',
        partner_account_name: 'Export Partner',
        federation_status: 'linked',
        federated_account_id: `'=HYPERLINK("https://evil.example")`,
      },
    ]);
  });

  it('writes every line as the platform’s CSV writer does, byte for byte', async () => {
    // Written by the database (decision 027); the expected lines by contract/csv.ts from the same values.
    const accounts = [
      { name: 'Tricky A =1+1, "quoted"', friendlyIdentifier: '+49 30', serviceTo: null, active: true },
      {
        name: 'Tricky B\ttab;semi\r\nlines',
        friendlyIdentifier: '-5',
        serviceTo: daysFromToday(3),
        active: false,
      },
      {
        name: 'Tricky C Müller 株式会社 🎉',
        friendlyIdentifier: "O'Brien\\path",
        serviceTo: null,
        active: true,
      },
    ];
    for (const account of accounts) {
      await insertAccount(harness, {
        ...account,
        partnerAccountId: partnerAccount,
        serviceFrom: daysFromToday(-2),
        federation: { status: 'linked', accountId: '@linked, "x"' },
      });
    }
    const text = await (await exportCsv('?name=tricky&sort=name:asc')).text();
    // Named A, B, C: in name order whatever the database's collation.
    const lines = accounts.map((account) =>
      csvLine([
        account.name,
        account.active ? 'active' : 'inactive',
        account.friendlyIdentifier,
        daysFromToday(-2),
        account.serviceTo ?? '',
        'standard',
        'Export Partner',
        'linked',
        '@linked, "x"',
      ]),
    );
    expect(text).toBe(csvLine(TENANT_CSV_COLUMNS) + lines.join(''));
  });

  it('filters on text holding quotes and backslashes as it is', async () => {
    const rows = parseTenantCsv(
      await (await exportCsv(`?friendly_identifier=${encodeURIComponent("O'Brien\\")}`)).text(),
    );
    expect(rows.map((row) => row.friendly_identifier)).toEqual(["O'Brien\\path"]);
  });

  it('streams every page, in the list’s order, whatever the sort', async () => {
    // 2,345 accounts over three batches, many sharing an end date and a status, so batch boundaries
    // fall inside runs of equal sort keys.
    await sql`
      insert into accounts (id, name, display_name, active, friendly_identifier, type, partner_account_id,
        locale, service_from, service_to, created_at, updated_at)
      select 'bulk-' || g, 'Bulk ' || (g % 97), 'Bulk', g % 5 <> 0, 'bulk-' || g, 'standard',
        case when g % 3 = 0 then ${partnerAccount} end, 'en_US', date '2026-01-01',
        date '2026-06-01' + (g % 4), now(), now()
      from generate_series(1, 2345) as g`.execute(harness.deps.db);
    for (const sort of ['end_date:desc', 'status:asc', 'partner_account_name:asc', 'name:desc']) {
      const query = `?name=bulk&sort=${sort}`;
      const rows = parseTenantCsv(await (await exportCsv(query)).text());
      const list = (await (
        await call(harness, 'GET', `${apiPaths.tenants.list}${query}&limit=99999`, { token: system.token })
      ).json()) as TenantList;
      expect(list.total).toBe(2345);
      expect(rows.map((row) => row.friendly_identifier)).toEqual(
        list.items.map((item) => item.friendly_identifier),
      );
    }
  });

  it('exports what the caller sees and the filters leave', async () => {
    const rows = parseTenantCsv(await (await exportCsv('?name=bulk&active=true', partner)).text());
    // Of g in 1..2345: under the partner when g % 3 = 0, active when g % 5 <> 0.
    expect(rows).toHaveLength(625);
    expect(new Set(rows.map((row) => row.partner_account_name))).toEqual(new Set(['Export Partner']));
  });
});

describe('expiring accounts', () => {
  it('counts the active accounts ending within 30 and 60 days, both days included, on both paths', async () => {
    const fresh = await createTestApp({ now: fixedClock });
    try {
      const viewer = await signedInUser(fresh, { accessScope: 'system' });
      for (const days of [-1, 0, 30, 31, 60, 61])
        await insertAccount(fresh, { serviceTo: daysFromToday(days) });
      await insertAccount(fresh, { serviceTo: daysFromToday(10), active: false });
      for (const path of [apiPaths.tenants.expiring, apiPaths.tenants.expiringAccounts]) {
        const response = await call(fresh, 'GET', path, { token: viewer.token });
        expect(await response.json()).toEqual({ '30': 2, '60': 4 });
      }
    } finally {
      await fresh.close();
    }
  });

  it('counts only the accounts the caller sees', async () => {
    await insertAccount(harness, { partnerAccountId: partnerAccount, serviceTo: daysFromToday(5) });
    await insertAccount(harness, { serviceTo: daysFromToday(5) });
    const response = await call(harness, 'GET', apiPaths.tenants.expiring, { token: partner.token });
    // The partner's hostile account above ends tomorrow but is inactive.
    expect(await response.json()).toEqual({ '30': 1, '60': 1 });
  });
});
