/**
 * Today's date in UTC, `YYYY-MM-DD`, from the request's clock (`deps.now()`): licence validity and
 * service periods are by calendar day, and dates of this form compare correctly as strings.
 */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
