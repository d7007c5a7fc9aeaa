import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  backOffSeconds,
  countFailure,
  countTowardsBackOff,
  countTowardsCeiling,
  forgetCounters,
  readCounters,
  secondsBlocked,
  windowOpen,
} from '../http/failure-counters.ts';

/**
 * Failed sign-in throttling (ASVS 6.1.1, 6.3.1), designed in docs/decisions/005-sign-in-throttling.md.
 * Four counters (`server/http/failure-counters.ts`), shared by every server process and counted for
 * `POST auth/login` only: the other routes that check a secret have budgets of their own (decision
 * 031), so nobody's wrong guesses elsewhere block a correct password here.
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

/** The back-off after the pair's `failures`-th failure: 30 s, 60 s, 120 s … up to 15 minutes. */
export function pairBackOffSeconds(failures: number): number {
  return backOffSeconds(failures, PAIR_POLICY);
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
  const rows = await readCounters(db, [
    keys.pair,
    keys.address,
    keys.user,
    ...(keys.device ? [keys.device] : []),
  ]);

  if (keys.device) {
    const device = rows.filter((row) => row.key === keys.device);
    if (secondsBlocked(device, now) === 0) return { kind: 'allowed', delayMs: 0, trustedDevice: true };
  }

  // The user counter only delays; the pair and the address block.
  const user = rows.find((row) => row.key === keys.user);
  const retryAfterSeconds = secondsBlocked(
    rows.filter((row) => row.key === keys.pair || row.key === keys.address),
    now,
  );
  if (retryAfterSeconds > 0) return { kind: 'blocked', retryAfterSeconds };
  const delayMs = user && windowOpen(user, now, USER_POLICY) ? userDelayMs(user.failures) : 0;
  return { kind: 'allowed', delayMs, trustedDevice: false };
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

  await countTowardsBackOff(db, keys.pair, now, PAIR_POLICY);

  await countTowardsCeiling(db, keys.address, now, ADDRESS_POLICY);

  await countFailure(db, keys.user, now, USER_POLICY);
}

/**
 * A successful sign-in forgets the failures of its own pair and device only. The address and user
 * counters stay: otherwise an attacker could reset them by signing in to an account of their own.
 */
export async function clearSignInFailures(db: Kysely<Database>, attempt: SignInAttempt): Promise<void> {
  const { pair, device } = counterKeys(attempt);
  await forgetCounters(db, device ? [pair, device] : [pair]);
}
