/**
 * Today's date in UTC, `YYYY-MM-DD`, from the request's clock (`deps.now()`): licence validity and
 * service periods are by calendar day, and dates of this form compare correctly as strings.
 */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The `YYYY-MM-DD` date `days` calendar days after `date` (before it for a negative number). */
export function addDays(date: string, days: number): string {
  return utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
}

/** The calendar date (`YYYY-MM-DD`) of `at` in the IANA time zone `zone`. */
export function dateInZone(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
