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
