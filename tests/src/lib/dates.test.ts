import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatTimestamp,
  formatUserDate,
  formatUserDateTime,
  parseCalendarDate,
} from '../../../src/lib/dates.ts';

describe('dates', () => {
  const date = Temporal.PlainDate.from('2025-03-05');

  it('formats plain dates as YYYY-MM-DD', () => {
    expect(formatDate(date)).toBe('2025-03-05');
  });

  it('formats timestamps as YYYY-MM-DD HH:mm:ss in the given time zone', () => {
    const instant = Temporal.Instant.from('2025-03-05T23:04:09Z');
    expect(formatTimestamp(instant, 'UTC')).toBe('2025-03-05 23:04:09');
    expect(formatTimestamp(instant, 'Europe/Berlin')).toBe('2025-03-06 00:04:09');
  });

  it('uses DD-MMM-YYYY for users without their own format', () => {
    expect(formatUserDate(date, null, 'en')).toBe('05-Mar-2025');
  });

  it("uses the user's own date format when set", () => {
    expect(formatUserDate(date, 'MM/DD/YYYY', 'en')).toBe('03/05/2025');
    // The console's own locale codes, whose region Intl would refuse as written.
    expect(formatUserDate(date, null, 'pt_BR')).toBe('05-mar.-2025');
    expect(formatUserDate(date, 'DD-MMM-YYYY', 'zh_TW')).toBe('05-3月-2025');
  });

  it('writes the default date as Japanese and Chinese readers do, whose months have no short names', () => {
    expect(formatUserDate(date, null, 'ja')).toBe('2025年3月5日');
    expect(formatUserDate(date, null, 'zh_CN')).toBe('2025年3月5日');
    expect(formatUserDate(date, null, 'zh_TW')).toBe('2025年3月5日');
    expect(formatUserDate(date, null, 'de')).toBe('05-Mär-2025');
    expect(formatUserDateTime(Temporal.PlainDateTime.from('2025-03-05T09:07:00'), null, 'ja')).toBe(
      '2025年3月5日 09:07',
    );
  });

  it('reads calendar dates from dates and instants, and nothing from garbage', () => {
    expect(parseCalendarDate('2025-03-05')?.toString()).toBe('2025-03-05');
    expect(parseCalendarDate('2025-03-05T10:00:00Z')?.toString()).toBe('2025-03-05');
    expect(parseCalendarDate('soon')).toBeNull();
    expect(parseCalendarDate(null)).toBeNull();
  });
});
