import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Failed sign-in throttling (ASVS 6.1.1, 6.3.1), designed in docs/decisions/005-sign-in-throttling.md.
 * Four counters, all in `sign_in_throttle` so every server process shares them:
 *
 * - pair (user name + address): exponential back-off. Only guesses from that address against that
 *   user feed it, so an attacker elsewhere cannot block the real user's own address.
 * - address (all user names): a hard ceiling on guesses from one address, which stops one address
 *   spraying passwords over many users.
 * - user (all addresses): never blocks, only adds a short delay, so a distributed attack on one user
 *   is slowed without locking the real user out.
 * - device (a browser the user signed in from before, proven by its cookie): an attempt from it is
 *   judged by its own counter alone, so neither blocks above, which anyone sharing the address (a
 *   proxy, a NAT) can set off, keep the user out. Too many failures on it take its trust away for a
 *   window, and the attempt is then judged like any other.
 */

interface CounterPolicy {
  /** Failures older than this no longer count. */
  windowSeconds: number;
}

export const PAIR_POLICY = {
  windowSeconds: 24 * 3600,
  /** Failures allowed before the first back-off. */
  freeFailures: 4,
  firstBackOffSeconds: 30,
  maxBackOffSeconds: 15 * 60,
} as const;

export const ADDRESS_POLICY = {
  windowSeconds: 15 * 60,
  /** Reaching this many failures in one window blocks the address until the window ends. */
  maxFailures: 50,
} as const;

export const DEVICE_POLICY = {
  windowSeconds: 15 * 60,
  /** Reaching this many failures in one window makes the device an unknown one until the window ends. */
  maxFailures: 10,
} as const;

export const USER_POLICY = {
  windowSeconds: 15 * 60,
  freeFailures: 10,
  delayStepMs: 200,
  maxDelayMs: 2_000,
} as const;

/** Where a sign-in attempt comes from and whom it names. */
export interface SignInAttempt {
  userName: string;
  address: string | null;
  /** The trusted device the browser proved for the named user (`trusted-devices.ts`), if any. */
  deviceId?: string | null;
}

export type ThrottleVerdict =
  | { kind: 'blocked'; retryAfterSeconds: number }
  /**
   * Go ahead after waiting `delayMs` (0 almost always). `trustedDevice`: judged as the user's known
   * device, whose failures then count against that device only.
   */
  | { kind: 'allowed'; delayMs: number; trustedDevice: boolean };

interface CounterKeys {
  pair: string;
  address: string;
  user: string;
  device: string | null;
}

/** Sign-in is case-insensitive, so the counters are too; unknown user names count like known ones. */
function counterKeys({ userName, address, deviceId }: SignInAttempt): CounterKeys {
  const user = userName.trim().toLowerCase();
  const from = address ?? 'unknown';
  return {
    pair: `pair:${user}|${from}`,
    address: `ip:${from}`,
    user: `user:${user}`,
    device: deviceId ? `device:${deviceId}` : null,
  };
}

function secondsBefore(now: Date, seconds: number): Date {
  return new Date(now.getTime() - seconds * 1000);
}

/** The back-off after the pair's `failures`-th failure: 30 s, 60 s, 120 s … up to 15 minutes. */
export function pairBackOffSeconds(failures: number): number {
  const excess = failures - PAIR_POLICY.freeFailures;
  if (excess <= 0) return 0;
  return Math.min(PAIR_POLICY.firstBackOffSeconds * 2 ** (excess - 1), PAIR_POLICY.maxBackOffSeconds);
}

/** The delay added to every attempt on a user with `failures` recent failures from anywhere. */
export function userDelayMs(failures: number): number {
  const excess = failures - USER_POLICY.freeFailures;
  if (excess <= 0) return 0;
  return Math.min(USER_POLICY.delayStepMs * excess, USER_POLICY.maxDelayMs);
}

/** Decides before the password is checked: a blocked attempt never reaches argon2. */
export async function checkSignInThrottle(
  db: Kysely<Database>,
  now: Date,
  attempt: SignInAttempt,
): Promise<ThrottleVerdict> {
  const keys = counterKeys(attempt);
  const rows = await db
    .selectFrom('sign_in_throttle')
    .select(['key', 'failures', 'window_started_at', 'blocked_until'])
    .where('key', 'in', [keys.pair, keys.address, keys.user, ...(keys.device ? [keys.device] : [])])
    .execute();

  if (keys.device) {
    const device = rows.find((row) => row.key === keys.device);
    const distrusted = device?.blocked_until && device.blocked_until > now;
    if (!distrusted) return { kind: 'allowed', delayMs: 0, trustedDevice: true };
  }

  let blockedUntil = 0;
  let delayMs = 0;
  for (const row of rows) {
    if (row.key === keys.device) continue;
    if (row.key === keys.user) {
      const windowOpen = row.window_started_at > secondsBefore(now, USER_POLICY.windowSeconds);
      if (windowOpen) delayMs = userDelayMs(row.failures);
    } else if (row.blocked_until) {
      blockedUntil = Math.max(blockedUntil, row.blocked_until.getTime());
    }
  }
  if (blockedUntil > now.getTime()) {
    return { kind: 'blocked', retryAfterSeconds: Math.ceil((blockedUntil - now.getTime()) / 1000) };
  }
  return { kind: 'allowed', delayMs, trustedDevice: false };
}

/**
 * Adds one failure to a counter and answers the new count. One statement, so concurrent failures
 * from several processes are all counted; a counter whose window has passed starts again at 1.
 */
async function countFailure(db: Kysely<Database>, key: string, now: Date, policy: CounterPolicy) {
  const windowStart = secondsBefore(now, policy.windowSeconds);
  const windowExpired = sql<boolean>`sign_in_throttle.window_started_at <= ${windowStart}`;
  const row = await db
    .insertInto('sign_in_throttle')
    .values({ key, failures: 1, window_started_at: now, blocked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${windowExpired} then 1 else sign_in_throttle.failures + 1 end`,
        window_started_at: sql<Date>`case when ${windowExpired} then ${now} else sign_in_throttle.window_started_at end`,
      }),
    )
    .returning(['failures', 'window_started_at'])
    .executeTakeFirstOrThrow();
  return row;
}

/** Extends a block; `greatest` keeps the longest when processes race to set it. */
async function blockUntil(db: Kysely<Database>, key: string, until: Date): Promise<void> {
  await db
    .updateTable('sign_in_throttle')
    .set({ blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}), ${until})` })
    .where('key', '=', key)
    .execute();
}

/** Counts a failure in `key` and blocks it until its window ends once it reaches `maxFailures`. */
async function countTowardsCeiling(
  db: Kysely<Database>,
  key: string,
  now: Date,
  policy: CounterPolicy & { maxFailures: number },
): Promise<void> {
  const counted = await countFailure(db, key, now, policy);
  if (counted.failures >= policy.maxFailures) {
    await blockUntil(db, key, new Date(counted.window_started_at.getTime() + policy.windowSeconds * 1000));
  }
}

/**
 * Counts a failed attempt as `verdict` judged it: a trusted device's against that device alone (its
 * owner's typos must not block the address or the pair), any other against the pair, the address
 * and the user.
 */
export async function recordSignInFailure(
  db: Kysely<Database>,
  now: Date,
  attempt: SignInAttempt,
  judged: { trustedDevice: boolean },
): Promise<void> {
  const keys = counterKeys(attempt);
  if (judged.trustedDevice && keys.device) {
    await countTowardsCeiling(db, keys.device, now, DEVICE_POLICY);
    return;
  }

  const pair = await countFailure(db, keys.pair, now, PAIR_POLICY);
  const backOff = pairBackOffSeconds(pair.failures);
  if (backOff > 0) await blockUntil(db, keys.pair, new Date(now.getTime() + backOff * 1000));

  await countTowardsCeiling(db, keys.address, now, ADDRESS_POLICY);

  await countFailure(db, keys.user, now, USER_POLICY);
}

/**
 * A successful sign-in forgets the failures of its own pair and device only. The address and user
 * counters stay: otherwise an attacker could reset them by signing in to an account of their own.
 */
export async function clearSignInFailures(db: Kysely<Database>, attempt: SignInAttempt): Promise<void> {
  const { pair, device } = counterKeys(attempt);
  await db
    .deleteFrom('sign_in_throttle')
    .where('key', 'in', device ? [pair, device] : [pair])
    .execute();
}
