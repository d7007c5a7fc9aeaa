import { DATE_FORMAT, DEFAULT_USER_DATE_FORMAT, TIMESTAMP_FORMAT } from '../../contract/constants.ts';
import { intlLocaleOf } from '../../contract/locales.ts';
import { Temporal } from './temporal.ts';

type DateLike = Temporal.PlainDate | Temporal.PlainDateTime;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * One formatter per locale: a list formats a month in every row, and making a formatter costs far
 * more than using one.
 */
const monthFormatters = new Map<string, Intl.DateTimeFormat>();

/** `locale`: the console's locale code as it holds it (`i18n.locale`, `pt_BR`). */
function monthShortName(date: DateLike, locale: string): string {
  let formatter = monthFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlLocaleOf(locale), { month: 'short', timeZone: 'UTC' });
    monthFormatters.set(locale, formatter);
  }
  return formatter.format(Date.UTC(date.year, date.month - 1, 1));
}

/**
 * Formats with the spec's tokens (YYYY, MMM, MM, DD, HH, mm, ss). Longer tokens are matched first so
 * that MMM is not read as MM followed by M.
 */
export function formatWithPattern(date: DateLike, pattern: string, locale = 'en'): string {
  const time = date instanceof Temporal.PlainDateTime ? date : null;
  return pattern.replace(/YYYY|MMM|MM|DD|HH|mm|ss/g, (token) => {
    switch (token) {
      case 'YYYY':
        return pad(date.year, 4);
      case 'MMM':
        return monthShortName(date, locale);
      case 'MM':
        return pad(date.month);
      case 'DD':
        return pad(date.day);
      case 'HH':
        return pad(time?.hour ?? 0);
      case 'mm':
        return pad(time?.minute ?? 0);
      default:
        return pad(time?.second ?? 0);
    }
  });
}

/** `YYYY-MM-DD` (D-10). */
export function formatDate(date: Temporal.PlainDate): string {
  return formatWithPattern(date, DATE_FORMAT);
}

/** `YYYY-MM-DD HH:mm:ss` in the given time zone, for audit and dated views (D-11). */
export function formatTimestamp(instant: Temporal.Instant, timeZone: string): string {
  return formatWithPattern(instant.toZonedDateTimeISO(timeZone).toPlainDateTime(), TIMESTAMP_FORMAT);
}

/** The locales whose short month names are numbers ("12月", "12월"), by `numericMonthNames`. */
const numericMonths = new Map<string, Intl.DateTimeFormat | null>();

/**
 * For a locale whose short month name is a number (Japanese and Chinese "12月"), the formatter of
 * the date its readers write ("2026年12月1日"); null where a month has a name. DD-MMM-YYYY there
 * would read "01-12月-2026" (decision 040).
 */
function numericMonthDateFormatter(locale: string): Intl.DateTimeFormat | null {
  let formatter = numericMonths.get(locale);
  if (formatter === undefined) {
    formatter = /\d/.test(monthShortName(Temporal.PlainDate.from('2026-12-01'), locale))
      ? new Intl.DateTimeFormat(intlLocaleOf(locale), {
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          timeZone: 'UTC',
        })
      : null;
    numericMonths.set(locale, formatter);
  }
  return formatter;
}

/**
 * The user's own date format when set, else `DD-MMM-YYYY` (D-12, D-13), which in a language whose
 * months have no short names is that language's own year-month-day date (decision 040).
 */
export function formatUserDate(date: DateLike, userFormat: string | null, locale: string): string {
  const own = userFormat === null ? numericMonthDateFormatter(locale) : null;
  return own
    ? own.format(Date.UTC(date.year, date.month - 1, date.day))
    : formatWithPattern(date, userFormat ?? DEFAULT_USER_DATE_FORMAT, locale);
}

/** A date and time of day as the user writes dates, then `HH:mm`. */
export function formatUserDateTime(
  dateTime: Temporal.PlainDateTime,
  userFormat: string | null,
  locale: string,
): string {
  return `${formatUserDate(dateTime, userFormat, locale)} ${formatWithPattern(dateTime, 'HH:mm')}`;
}

/** The calendar day of an API timestamp where the user is, in the user's date format. */
export function userDate(timestamp: string, dateFormat: string | null, locale: string): string {
  const day = Temporal.Instant.from(timestamp).toZonedDateTimeISO(Temporal.Now.timeZoneId()).toPlainDate();
  return formatUserDate(day, dateFormat, locale);
}

/** Reads `YYYY-MM-DD` or an ISO instant as a calendar date; anything else is `null`. */
export function parseCalendarDate(value: string | null | undefined): Temporal.PlainDate | null {
  if (!value) return null;
  try {
    return Temporal.PlainDate.from(value.slice(0, 10));
  } catch {
    return null;
  }
}

export function today(timeZone = Temporal.Now.timeZoneId()): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(timeZone);
}
