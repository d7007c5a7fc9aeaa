import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { csvLine } from '../../../contract/csv.ts';
import {
  HARDWARE_KEY_PAIR_UNITS,
  type LicenceChangeOption,
  type LicenceQuantityIssue,
  type LicenceRowState,
  type LicenceType,
  licenceChangeOptions,
  licenceOverUse,
  licenceQuantityIssue,
  UNLIMITED,
} from '../../../contract/licences.ts';
import type { ApplicationCode } from '../../../contract/permissions.ts';
import type {
  AccountLicence,
  LicenceChangeRequest,
  LicenceHistoryItem,
  LicenceRow,
} from '../../../contract/schemas/licences.ts';
import { APPLICATION_NAMES } from '../../components/role-labels.ts';
import { formatUserDate, formatUserDateTime, parseCalendarDate } from '../../lib/dates.ts';
import { safeFileName } from '../../lib/download.ts';
import { Temporal } from '../../lib/temporal.ts';

/** What each application counts, in the user's language (decision 022 §1). */
export const LICENCE_TYPE_LABELS: Readonly<Record<LicenceType, MessageDescriptor>> = {
  certificates: msg`Certificates`,
  signing_keys: msg`Signing keys`,
  signatures: msg`Signatures`,
  iot_devices: msg`IoT devices`,
  managed_endpoints: msg`Managed endpoints`,
  document_signatures: msg`Document signatures`,
  hardware_key_pair_units: msg`Hardware key-pair units`,
  discovered_hosts: msg`Discovered hosts`,
  devices: msg`Devices`,
};

/** A licence type's name; a type this console does not know yet keeps the name the server gave. */
export function licenceTypeLabel(type: string, i18n: I18n): string {
  const label = (LICENCE_TYPE_LABELS as Readonly<Record<string, MessageDescriptor>>)[type];
  return label ? i18n._(label) : type;
}

const UNLIMITED_LABEL = msg`Unlimited`;

/** A count as shown and written: -1 is "Unlimited" (J-05). */
export function licenceAmount(value: number, i18n: I18n): string {
  return value === UNLIMITED ? i18n._(UNLIMITED_LABEL) : i18n.number(value);
}

export function rowState(row: LicenceRow): LicenceRowState {
  return {
    feature: row.featureId as LicenceType,
    allocationAvailable: row.licenseAllocation,
    totalAllocated: row.totalAllocated,
    used: row.used,
    remaining: row.remaining,
  };
}

/** One row of the edit as the user set it: the option chosen and the quantity as typed. */
export interface RowEdit {
  option: LicenceChangeOption;
  quantity: string;
}

export const NO_CHANGE: RowEdit = { option: 'noChange', quantity: '' };

/** The options a row offers on this licence (J-11 … J-17). */
export function rowOptions(licence: AccountLicence, row: LicenceRow): LicenceChangeOption[] {
  return licenceChangeOptions(rowState(row), { hasDocumentSigningLicence: licence.has_dsm_license });
}

/** Why a row's quantity is refused; none while the row changes nothing. */
export function rowIssue(row: LicenceRow, edit: RowEdit): LicenceQuantityIssue | null {
  if (edit.option === 'noChange') return null;
  return licenceQuantityIssue(edit.option, edit.quantity, rowState(row));
}

/** A reset that leaves a type's total below what the account already uses, and by how much. */
export interface OverUseAfterChange {
  feature: string;
  overUse: number;
}

/**
 * The edit's verdict: the request to send, or why Update stays blocked (J-25, J-26). A ready request
 * names the resets that would leave the account over its licence: the user confirms those first.
 */
export type EditOutcome =
  | { kind: 'invalid' }
  | { kind: 'unchanged' }
  | { kind: 'ready'; request: LicenceChangeRequest; overUse: OverUseAfterChange[] };

/** How far a row's use would go past its total once the edit is applied; 0 when it stays within. */
export function overUseAfter(row: LicenceRow, edit: RowEdit): number {
  if (edit.option !== 'reset' || rowIssue(row, edit)) return 0;
  return licenceOverUse(Number(edit.quantity), row.used);
}

export function editOutcome(licence: AccountLicence, edits: Readonly<Record<string, RowEdit>>): EditOutcome {
  const changes: LicenceChangeRequest['changes'] = [];
  const overUse: OverUseAfterChange[] = [];
  for (const row of licence.data) {
    const edit = edits[row.featureId] ?? NO_CHANGE;
    if (edit.option === 'noChange') continue;
    if (rowIssue(row, edit)) return { kind: 'invalid' };
    const quantity = Number(edit.quantity);
    // A reset to what the row already holds changes nothing, like no change at all.
    if (edit.option === 'reset' && quantity === row.totalAllocated) continue;
    changes.push({ feature: row.featureId, option: edit.option, quantity });
    const over = overUseAfter(row, edit);
    if (over > 0) overUse.push({ feature: row.featureId, overUse: over });
  }
  return changes.length === 0 ? { kind: 'unchanged' } : { kind: 'ready', request: { changes }, overUse };
}

/** Whether Reset all is offered: only where a reset is (J-12, J-18). */
export function offersResetAll(licence: AccountLicence): boolean {
  return licence.data.some((row) => rowOptions(licence, row).includes('reset'));
}

/** Reset all (J-18): every type but hardware key-pair units to 0; those keep what the user set. */
export function resetAllEdits(
  licence: AccountLicence,
  edits: Readonly<Record<string, RowEdit>>,
): Record<string, RowEdit> {
  const next: Record<string, RowEdit> = { ...edits };
  for (const row of licence.data) {
    if (row.featureId === HARDWARE_KEY_PAIR_UNITS || !rowOptions(licence, row).includes('reset')) continue;
    next[row.featureId] = { option: 'reset', quantity: '0' };
  }
  return next;
}

/** A signed change as the history and its file write it: + before a gain (J-47). */
export function signedText(quantity: number, i18n: I18n): string {
  return quantity > 0 ? `+${i18n.number(quantity)}` : i18n.number(quantity);
}

/** History items by their day in the user's zone, newest day first as the server sent them (J-40). */
export function groupByDate(
  items: readonly LicenceHistoryItem[],
): { date: string; items: LicenceHistoryItem[] }[] {
  const groups: { date: string; items: LicenceHistoryItem[] }[] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last?.date === item.date) last.items.push(item);
    else groups.push({ date: item.date, items: [item] });
  }
  return groups;
}

/** The day of a history group in the user's own date format. */
export function historyDay(date: string, dateFormat: string | null, locale: string): string {
  const day = parseCalendarDate(date);
  return day ? formatUserDate(day, dateFormat, locale) : date;
}

interface CsvOptions {
  i18n: I18n;
  dateFormat: string | null;
  /** The browser's zone, which the server's `date` of each row is in. */
  timeZone: string;
  /** The user column is the system scope's only (J-46), as the actor's name is (J-43). */
  withUser: boolean;
}

const CSV_HEADERS = {
  manager: msg`Manager`,
  date: msg`Date`,
  type: msg`Licence type`,
  change: msg`Change`,
  total: msg`New total`,
  user: msg`User`,
};

/**
 * The history file (J-45 … J-47): the application, the time of the change in the user's date format,
 * the licence type, the signed change and the new total, and the user for system scope. Cells go
 * through the platform's one CSV writer, which defuses what a spreadsheet would run as a formula.
 */
export function historyCsv(items: readonly LicenceHistoryItem[], options: CsvOptions): string {
  const { i18n, dateFormat, timeZone, withUser } = options;
  const header = [
    CSV_HEADERS.manager,
    CSV_HEADERS.date,
    CSV_HEADERS.type,
    CSV_HEADERS.change,
    CSV_HEADERS.total,
  ];
  if (withUser) header.push(CSV_HEADERS.user);
  const lines = items.map((item) => {
    const when = Temporal.Instant.from(item.timestamp).toZonedDateTimeISO(timeZone).toPlainDateTime();
    const cells = [
      APPLICATION_NAMES[item.app_code],
      formatUserDateTime(when, dateFormat, i18n.locale),
      licenceTypeLabel(item.feature, i18n),
      // Plain digits, not the locale's grouping: the file is read by spreadsheets.
      item.quantity > 0 ? `+${item.quantity}` : String(item.quantity),
      item.limit === UNLIMITED ? i18n._(UNLIMITED_LABEL) : String(item.limit),
    ];
    if (withUser) cells.push(item.actor ?? '');
    return csvLine(cells);
  });
  return csvLine(header.map((cell) => i18n._(cell))) + lines.join('');
}

/** `{account name}_{today in the user's date format}.csv` (J-48), with no character a file name refuses. */
export function historyFileName(accountName: string, todayText: string): string {
  return safeFileName(`${accountName}_${todayText}.csv`) ?? 'license-history.csv';
}

/** One licence type's allocation over time: a step per recorded change, oldest first. */
export interface AllocationSeries {
  feature: string;
  steps: { at: number; total: number }[];
}

/**
 * The allocation of each licence type of an application over time, from every history row (oldest
 * first): the history records totals, not use, so use is the current value the licence shows.
 */
export function allocationSeries(
  items: readonly LicenceHistoryItem[],
  app: ApplicationCode,
): AllocationSeries[] {
  const byFeature = new Map<string, AllocationSeries>();
  for (const item of items) {
    if (item.app_code !== app) continue;
    const series = byFeature.get(item.feature) ?? { feature: item.feature, steps: [] };
    series.steps.push({ at: Date.parse(item.timestamp), total: item.limit });
    byFeature.set(item.feature, series);
  }
  return [...byFeature.values()];
}
