import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  blockUntil,
  countFailure,
  countTowardsCeiling,
  forgetCounters,
  readCounters,
  secondsBlocked,
  windowEnd,
} from '../http/failure-counters.ts';

/**
 * Wrong enrollment codes (decision 031). A code is 128 random bits, so the throttle is not what
 * keeps it secret; it bounds how many codes a guesser has checked a minute, and it must never keep
 * the enrollee out. Nothing here is keyed by the enrollment alone: no number of wrong codes, from
 * any addresses, stops the enrollment's own link.
 *
 * - pair (address + enrollment id): a few typos of the code are free, then the pair waits for its
 *   window to end. Only that address guessing that enrollment feeds it.
 * - address (all enrollments): a ceiling on one address's wrong codes. Reaching it does not refuse the
 *   address: it *restricts* it until the window ends (below).
 * - all (every address): the same ceiling over everyone, for an attack from many addresses; reaching
 *   it restricts every address for the rest of its short window.
 *
 * A restricted call is still checked, so a right code gets through from a shared address (an office
 * behind one NAT) whatever a neighbour guesses; a wrong one blocks its pair at once (no free typos)
 * and answers 429 like a refused call, so an unknown id and a known one still answer alike. The
 * guesser therefore gets one checked guess per enrollment id and window, which bounds the guesses
 * checked against any enrollment that exists, while made-up ids cost only the rows they leave.
 */

export const CODE_PAIR_POLICY = { windowSeconds: 15 * 60, maxFailures: 5 } as const;
export const CODE_ADDRESS_POLICY = { windowSeconds: 15 * 60, maxFailures: 30 } as const;
export const CODE_GLOBAL_POLICY = { windowSeconds: 60, maxFailures: 300 } as const;

export interface CodeAttempt {
  enrollmentId: string;
  address: string | null;
}

export type CodeVerdict =
  /** The pair is blocked: answered 429 before the code is looked at. */
  | { kind: 'blocked'; retryAfterSeconds: number }
  /** Checked; a wrong code counts its pair, address and everyone's, and answers 404. */
  | { kind: 'open' }
  /** Checked; a wrong code blocks its pair at once and answers 429 with `retryAfterSeconds`. */
  | { kind: 'restricted'; retryAfterSeconds: number };

const GLOBAL_KEY = 'enrollment-code:all';

function counterKeys({ enrollmentId, address }: CodeAttempt) {
  const from = address ?? 'unknown';
  return {
    pair: `enrollment-code:pair:${from}|${enrollmentId.toLowerCase()}`,
    address: `enrollment-code:ip:${from}`,
    all: GLOBAL_KEY,
  };
}

export async function checkCodeThrottle(
  db: Kysely<Database>,
  now: Date,
  attempt: CodeAttempt,
): Promise<CodeVerdict> {
  const keys = counterKeys(attempt);
  const rows = await readCounters(db, [keys.pair, keys.address, keys.all]);
  const pairBlocked = secondsBlocked(
    rows.filter((row) => row.key === keys.pair),
    now,
  );
  if (pairBlocked > 0) return { kind: 'blocked', retryAfterSeconds: pairBlocked };
  const restricted = secondsBlocked(
    rows.filter((row) => row.key !== keys.pair),
    now,
  );
  return restricted > 0 ? { kind: 'restricted', retryAfterSeconds: restricted } : { kind: 'open' };
}

/** Counts a wrong code as `verdict` judged it (outside the request's transaction). */
export async function recordWrongCode(
  db: Kysely<Database>,
  now: Date,
  attempt: CodeAttempt,
  verdict: CodeVerdict,
): Promise<void> {
  const keys = counterKeys(attempt);
  if (verdict.kind === 'restricted') {
    const counted = await countFailure(db, keys.pair, now, CODE_PAIR_POLICY);
    await blockUntil(db, keys.pair, windowEnd(counted, CODE_PAIR_POLICY));
  } else {
    await countTowardsCeiling(db, keys.pair, now, CODE_PAIR_POLICY);
  }
  await countTowardsCeiling(db, keys.address, now, CODE_ADDRESS_POLICY);
  await countTowardsCeiling(db, keys.all, now, CODE_GLOBAL_POLICY);
}

/** A right code forgets its own pair's typos; the address and global counters stay. */
export async function clearCodeFailures(db: Kysely<Database>, attempt: CodeAttempt): Promise<void> {
  await forgetCounters(db, [counterKeys(attempt).pair]);
}
