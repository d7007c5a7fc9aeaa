/** First retry after up to a second; no entry waits more than five minutes between attempts. */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;

/**
 * Exponential back-off with full jitter: after the `attempts`-th failure, a delay drawn uniformly
 * from [0, min(cap, base × 2^(attempts − 1))). Spreading retries over the whole window keeps tabs of
 * many users from hitting a recovering server in step.
 */
export function backoffDelay(attempts: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.floor(random() * ceiling);
}

/** Seconds of a `Retry-After` header in milliseconds; an HTTP date counts from `now`. */
export function retryAfterDelay(header: string | null, now: number): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
