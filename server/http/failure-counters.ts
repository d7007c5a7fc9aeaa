import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Counters of failed attempts, shared by every throttle of the platform (decisions 005 and 031) and
 * by every server process: one row per key in `sign_in_throttle`, the table sign-in's throttle
 * started in. Each purpose names its keys with a prefix of its own (sign-in's `pair:`, `ip:`,
 * `user:`, `device:`; `enrollment-code:`, `link-password:`, `password-change:`, `user-name-probe:`), so one purpose's
 * failures never count against another's budget.
 */

export interface CounterPolicy {
  /** Failures older than this no longer count. */
  windowSeconds: number;
}

/** A counter that blocks its key once it reaches `maxFailures` in one window, until the window ends. */
export interface CeilingPolicy extends CounterPolicy {
  maxFailures: number;
}

/** A counter whose failures past `freeFailures` block its key for a doubling time. */
export interface BackOffPolicy extends CounterPolicy {
  freeFailures: number;
  firstBackOffSeconds: number;
  maxBackOffSeconds: number;
}

export interface CounterRow {
  key: string;
  failures: number;
  window_started_at: Date;
  blocked_until: Date | null;
}

export function secondsBefore(now: Date, seconds: number): Date {
  return new Date(now.getTime() - seconds * 1000);
}

/** The back-off after the `failures`-th failure: none while free, then the first, doubling to the most. */
export function backOffSeconds(failures: number, policy: BackOffPolicy): number {
  const excess = failures - policy.freeFailures;
  if (excess <= 0) return 0;
  return Math.min(policy.firstBackOffSeconds * 2 ** (excess - 1), policy.maxBackOffSeconds);
}

export async function readCounters(db: Kysely<Database>, keys: readonly string[]): Promise<CounterRow[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('sign_in_throttle')
    .select(['key', 'failures', 'window_started_at', 'blocked_until'])
    .where('key', 'in', keys)
    .execute();
}

/** Seconds until the latest block among `rows` ends; 0 when none is in force at `now`. */
export function secondsBlocked(rows: readonly CounterRow[], now: Date): number {
  const until = Math.max(0, ...rows.map((row) => row.blocked_until?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

/** Whether the counter's window is still open at `now`, so its failures count. */
export function windowOpen(row: CounterRow | undefined, now: Date, policy: CounterPolicy): boolean {
  return row !== undefined && row.window_started_at > secondsBefore(now, policy.windowSeconds);
}

/**
 * Adds `amount` failures (one unless said) to a counter and answers the new count. One statement, so
 * concurrent failures from several processes are all counted; a counter whose window has passed
 * starts again at `amount`.
 */
export async function countFailure(
  db: Kysely<Database>,
  key: string,
  now: Date,
  policy: CounterPolicy,
  amount = 1,
): Promise<{ failures: number; window_started_at: Date }> {
  const windowStart = secondsBefore(now, policy.windowSeconds);
  const windowExpired = sql<boolean>`sign_in_throttle.window_started_at <= ${windowStart}`;
  return db
    .insertInto('sign_in_throttle')
    .values({ key, failures: amount, window_started_at: now, blocked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${windowExpired} then ${amount} else sign_in_throttle.failures + ${amount} end`,
        window_started_at: sql<Date>`case when ${windowExpired} then ${now} else sign_in_throttle.window_started_at end`,
      }),
    )
    .returning(['failures', 'window_started_at'])
    .executeTakeFirstOrThrow();
}

/** Extends a block; `greatest` keeps the longest when processes race to set it. */
export async function blockUntil(db: Kysely<Database>, key: string, until: Date): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set({ blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}), ${until})` })
    .where('key', '=', key)
    .execute();
}

/** When the window a counter is in ends. */
export function windowEnd(counted: { window_started_at: Date }, policy: CounterPolicy): Date {
  return new Date(counted.window_started_at.getTime() + policy.windowSeconds * 1000);
}

/** Counts a failure in `key` and blocks it until its window ends once it reaches `maxFailures`. */
export async function countTowardsCeiling(
  db: Kysely<Database>,
  key: string,
  now: Date,
  policy: CeilingPolicy,
): Promise<void> {
  const counted = await countFailure(db, key, now, policy);
  if (counted.failures >= policy.maxFailures) await blockUntil(db, key, windowEnd(counted, policy));
}

/** Counts a failure in `key` and blocks it for its back-off once past its free failures. */
export async function countTowardsBackOff(
  db: Kysely<Database>,
  key: string,
  now: Date,
  policy: BackOffPolicy,
): Promise<void> {
  const counted = await countFailure(db, key, now, policy);
  const wait = backOffSeconds(counted.failures, policy);
  if (wait > 0) await blockUntil(db, key, new Date(now.getTime() + wait * 1000));
}

export async function forgetCounters(db: Kysely<Database>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('sign_in_throttle').where('key', 'in', keys).execute();
}
