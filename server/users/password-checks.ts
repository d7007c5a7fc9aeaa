import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  type BackOffPolicy,
  countTowardsBackOff,
  forgetCounters,
  readCounters,
  secondsBlocked,
} from '../http/failure-counters.ts';

/**
 * The current password asked outside sign-in (decision 031): by a password change in the user's own
 * session, and by an address-change link. Each has a budget of its own that only whoever already
 * holds that session's user or that link can spend, so neither a stranger's wrong sign-ins at the
 * same address nor these wrong passwords touch sign-in's counters. The back-off is sign-in's pair
 * schedule: four free, then 30 s doubling to 15 minutes.
 */
export const PASSWORD_CHECK_POLICY: BackOffPolicy = {
  windowSeconds: 24 * 3600,
  freeFailures: 4,
  firstBackOffSeconds: 30,
  maxBackOffSeconds: 15 * 60,
};

/** The budget of the user's own password change, whichever of their sessions asks. */
export const passwordChangeKey = (userId: string) => `password-change:user:${userId}`;

/** The budget of one address-change link, named by its code's hash, never the code. */
export const linkPasswordKey = (tokenHash: string) => `link-password:${tokenHash}`;

/** Seconds the check must wait; 0 when it may go ahead. */
export async function passwordCheckWait(db: Kysely<Database>, now: Date, key: string): Promise<number> {
  return secondsBlocked(await readCounters(db, [key]), now);
}

export function recordWrongPassword(db: Kysely<Database>, now: Date, key: string): Promise<void> {
  return countTowardsBackOff(db, key, now, PASSWORD_CHECK_POLICY);
}

export function forgetWrongPasswords(db: Kysely<Database>, key: string): Promise<void> {
  return forgetCounters(db, [key]);
}
