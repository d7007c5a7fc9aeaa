import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import type {
  AccountLicence,
  LicenceHistoryItem,
  LicenceRow,
} from '../../../../contract/schemas/licences.ts';
import {
  allocationSeries,
  editOutcome,
  groupByDate,
  historyCsv,
  historyFileName,
  offersResetAll,
  resetAllEdits,
  rowIssue,
  rowOptions,
} from '../../../../src/features/licences/model.ts';

const i18n = setupI18n({ locale: 'en', messages: { en: {} } });

function row(overrides: Partial<LicenceRow> = {}): LicenceRow {
  return {
    id: 'row-1',
    featureId: 'document_signatures',
    licenseType: 'document_signatures',
    remaining: 40,
    overUse: 0,
    used: 10,
    totalAllocated: 50,
    licenseAllocation: 100,
    metered: false,
    ...overrides,
  };
}

function licence(data: LicenceRow[], overrides: Partial<AccountLicence> = {}): AccountLicence {
  return {
    id: 'document_signing_manager',
    title: 'Document Signing Manager',
    canEdit: true,
    visible: true,
    data,
    version: 3,
    has_dsm_license: true,
    parent: { id: 'p', name: 'Partner Ltd' },
    ...overrides,
  };
}

describe('the options a licence row offers (J-11 … J-17)', () => {
  it.each([
    [
      'all four on a document signing account with room both ways',
      row(),
      true,
      ['noChange', 'add', 'subtract', 'reset'],
    ],
    ['no reset without a document signing licence (J-12)', row(), false, ['noChange', 'add', 'subtract']],
    [
      'never a reset for hardware key-pair units (J-13)',
      row({ featureId: 'hardware_key_pair_units' }),
      true,
      ['noChange', 'add', 'subtract'],
    ],
    [
      'no add when nothing is available (J-14)',
      row({ licenseAllocation: 0 }),
      false,
      ['noChange', 'subtract'],
    ],
    ['no subtract when nothing remains (J-15)', row({ remaining: 0 }), false, ['noChange', 'add']],
    [
      'neither when nothing is allocated anywhere (J-16)',
      row({ licenseAllocation: 0, totalAllocated: 0, used: 0, remaining: 0 }),
      false,
      ['noChange'],
    ],
    [
      'neither when the pool is spent and all is used (J-17)',
      row({ licenseAllocation: 0, totalAllocated: 5, used: 5, remaining: 0 }),
      false,
      ['noChange'],
    ],
    ['add from an unlimited pool', row({ licenseAllocation: -1 }), false, ['noChange', 'add', 'subtract']],
    [
      'no subtract from an unlimited total',
      row({ totalAllocated: -1, remaining: -1 }),
      false,
      ['noChange', 'add'],
    ],
  ])('%s', (_, state, dsm, expected) => {
    expect(rowOptions(licence([state], { has_dsm_license: dsm }), state)).toEqual(expected);
  });
});

describe('the quantity rules (J-19 … J-24)', () => {
  const state = row({ licenseAllocation: 100, totalAllocated: 50, used: 10, remaining: 40 });
  it.each([
    ['add', '1', null],
    ['add', '100', null],
    ['add', '101', { code: 'cannotExceed', maximum: 100 }],
    ['add', '0', { code: 'positiveNumber' }],
    ['add', '07', { code: 'positiveNumber' }],
    ['add', '1.5', { code: 'positiveNumber' }],
    ['add', '1e3', { code: 'positiveNumber' }],
    ['add', 'ten', { code: 'positiveNumber' }],
    ['add', '-3', { code: 'positiveNumber' }],
    ['add', '', { code: 'positiveNumber' }],
    ['subtract', '40', null],
    ['subtract', '41', { code: 'cannotExceed', maximum: 40 }],
    ['reset', '0', null],
    ['reset', '150', null],
    ['reset', '151', { code: 'cannotExceed', maximum: 150 }],
    ['reset', '00', { code: 'positiveNumber' }],
    ['add', '2147483648', { code: 'cannotExceed', maximum: 2147483647 }],
  ] as const)('%s %j', (option, quantity, issue) => {
    expect(rowIssue(state, { option, quantity })).toEqual(issue);
  });

  it('has no issue while a row changes nothing', () => {
    expect(rowIssue(state, { option: 'noChange', quantity: 'x' })).toBeNull();
  });
});

describe('the Update verdict (J-25, J-26) and Reset all (J-18)', () => {
  const signatures = row();
  const units = row({
    id: 'row-2',
    featureId: 'hardware_key_pair_units',
    totalAllocated: 4,
    remaining: 4,
    overUse: 0,
    used: 0,
  });
  const dsm = licence([signatures, units]);

  it('is blocked with nothing changed, and with any error', () => {
    expect(editOutcome(dsm, {})).toEqual({ kind: 'unchanged' });
    expect(
      editOutcome(dsm, {
        document_signatures: { option: 'add', quantity: '1' },
        hardware_key_pair_units: { option: 'add', quantity: '0' },
      }),
    ).toEqual({
      kind: 'invalid',
    });
  });

  it('sends only the rows that change, a reset to the current total being no change', () => {
    expect(
      editOutcome(dsm, {
        document_signatures: { option: 'reset', quantity: '50' },
        hardware_key_pair_units: { option: 'subtract', quantity: '2' },
      }),
    ).toEqual({
      kind: 'ready',
      request: { changes: [{ feature: 'hardware_key_pair_units', option: 'subtract', quantity: 2 }] },
      overUse: [],
    });
  });

  it('names the resets that leave a total below the use, with how far', () => {
    expect(editOutcome(dsm, { document_signatures: { option: 'reset', quantity: '4' } })).toEqual({
      kind: 'ready',
      request: { changes: [{ feature: 'document_signatures', option: 'reset', quantity: 4 }] },
      overUse: [{ feature: 'document_signatures', overUse: 6 }],
    });
  });

  it('resets every type but hardware key-pair units to 0, and is offered only where a reset is', () => {
    const edits = resetAllEdits(dsm, { hardware_key_pair_units: { option: 'add', quantity: '3' } });
    expect(edits).toEqual({
      document_signatures: { option: 'reset', quantity: '0' },
      hardware_key_pair_units: { option: 'add', quantity: '3' },
    });
    expect(offersResetAll(dsm)).toBe(true);
    expect(offersResetAll(licence([signatures], { has_dsm_license: false }))).toBe(false);
  });
});

function item(overrides: Partial<LicenceHistoryItem> = {}): LicenceHistoryItem {
  return {
    id: 'h1',
    timestamp: '2026-11-20T09:30:00Z',
    date: '2026-11-20',
    actor: 'Ada Admin',
    app_code: 'document_signing_manager',
    feature: 'document_signatures',
    quantity: 25,
    limit: 75,
    ...overrides,
  };
}

describe('the history', () => {
  it('groups by day in the order given (J-40)', () => {
    const groups = groupByDate([
      item({ id: 'a', date: '2026-11-21' }),
      item({ id: 'b', date: '2026-11-21' }),
      item({ id: 'c', date: '2026-11-20' }),
    ]);
    expect(groups.map((group) => [group.date, group.items.map((entry) => entry.id)])).toEqual([
      ['2026-11-21', ['a', 'b']],
      ['2026-11-20', ['c']],
    ]);
  });

  it('writes the file with + before gains, Unlimited, the user for system scope, and defused cells (J-45 … J-47)', () => {
    const items = [
      item(),
      item({ id: 'h2', timestamp: '2026-11-21T23:15:00Z', quantity: -5, limit: 70, actor: '=cmd|calc' }),
      item({
        id: 'h3',
        app_code: 'ca_manager',
        feature: 'certificates',
        quantity: 0,
        limit: -1,
        actor: null,
      }),
    ];
    const options = { i18n, dateFormat: 'YYYY/MM/DD', timeZone: 'Europe/Berlin' };
    expect(historyCsv(items, { ...options, withUser: true })).toBe(
      [
        'Manager,Date,Licence type,Change,New total,User',
        'Document Signing Manager,2026/11/20 10:30,Document signatures,+25,75,Ada Admin',
        "Document Signing Manager,2026/11/22 00:15,Document signatures,-5,70,'=cmd|calc",
        'Private CA,2026/11/20 10:30,Certificates,0,Unlimited,',
        '',
      ].join('\r\n'),
    );
    expect(historyCsv(items.slice(0, 1), { ...options, withUser: false })).toBe(
      'Manager,Date,Licence type,Change,New total\r\nDocument Signing Manager,2026/11/20 10:30,Document signatures,+25,75\r\n',
    );
  });

  it('names the file by the account and today in the user’s format, without path separators (J-48)', () => {
    expect(historyFileName('Example Corp', '25-Nov-2026')).toBe('Example Corp_25-Nov-2026.csv');
    expect(historyFileName('A/B', '2026/11/25')).toBe('A_B_2026_11_25.csv');
  });

  it('draws each type of one application from its changes, oldest first', () => {
    const series = allocationSeries(
      [
        item({ limit: 10 }),
        item({ id: 'x', app_code: 'ca_manager', feature: 'certificates' }),
        item({ id: 'h2', timestamp: '2026-11-21T00:00:00Z', limit: 4 }),
      ],
      'document_signing_manager',
    );
    expect(series).toEqual([
      {
        feature: 'document_signatures',
        steps: [
          { at: Date.parse('2026-11-20T09:30:00Z'), total: 10 },
          { at: Date.parse('2026-11-21T00:00:00Z'), total: 4 },
        ],
      },
    ]);
  });
});
