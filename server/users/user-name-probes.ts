import { type Kysely, sql } from 'kysely';
import { reachesUsersOf } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import {
  blockUntil,
  type CeilingPolicy,
  countFailure,
  readCounters,
  secondsBlocked,
  windowEnd,
} from '../http/failure-counters.ts';
import { TooBusy } from '../http/fair-gate.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * User names are unique on the whole platform and sign-in asks for the name alone, so refusing a
 * taken name tells whoever chose it that somebody has it, in another partner's or customer's account
 * too. No answer can avoid that (decision 041); what this bounds is how many such names a caller
 * learns: each name found taken whose user the caller does not reach counts against the caller's
 * budget, and once it is spent every check of a name, free or taken, answers 429 until the hour ends,
 * so neither the refusal nor its absence tells anything more. Names of users within reach cost
 * nothing: the caller can list those users anyway.
 */
export const USER_NAME_PROBES: CeilingPolicy = { windowSeconds: 3600, maxFailures: 20 };

const probeKey = (principal: Principal) => `user-name-probe:user:${principal.userId}`;

function tooManyProbes(seconds: number): TooBusy {
  return new TooBusy(
    'Too many user names of users outside your reach were found taken. Try again later.',
    Math.max(seconds, 1),
  );
}

/** A 409 `inUse` for a taken user name, knowing whether its user is outside the caller's reach. */
export class UserNameInUse extends ApiError {
  constructor(
    message: string,
    field: string,
    /** How many of the names refused belong to users the caller does not reach. */
    readonly outsideReach: number,
  ) {
    super(409, message, { field, code: 'inUse' });
  }
}

/**
 * Which of `names` are taken on the platform (as lower-cased keys), and how many of those belong to
 * users `principal` does not reach. Runs in the caller's transaction.
 */
export async function takenUserNames(
  db: Kysely<Database>,
  principal: Principal,
  names: readonly string[],
): Promise<{ taken: Set<string>; outsideReach: number }> {
  const taken = new Set<string>();
  let outsideReach = 0;
  const keys = [...new Set(names.map((name) => name.toLowerCase()))];
  // A few thousand keys per query: a bulk file's names fit a handful of them.
  for (let start = 0; start < keys.length; start += 5000) {
    const rows = await db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
      .select((eb) => ['users.user_name_key', sql<boolean>`${reachesUsersOf(principal)(eb)}`.as('reached')])
      .where('users.user_name_key', 'in', keys.slice(start, start + 5000))
      .execute();
    for (const row of rows) {
      taken.add(row.user_name_key);
      if (!row.reached) outsideReach += 1;
    }
  }
  return { taken, outsideReach };
}

/** Throws the 409 `inUse` of `field` when `name` is taken. */
export async function assertUserNameFree(
  db: Kysely<Database>,
  principal: Principal,
  name: string,
  field: string,
  message: string,
): Promise<void> {
  const { taken, outsideReach } = await takenUserNames(db, principal, [name]);
  if (taken.size > 0) throw new UserNameInUse(message, field, outsideReach);
}

/**
 * Runs `work`, which checks user names, as one probe of `principal`'s budget: refused with 429 while
 * the budget is spent; a `UserNameInUse` it throws is counted (on `db`, outside the transaction the
 * work rolled back) and answered 429 instead once it spends the budget. `work` that answers taken
 * names itself (a bulk file's report) says how many were outside the reach by `outsideReachOf`.
 */
export async function probingUserNames<T>(
  db: Kysely<Database>,
  principal: Principal,
  now: Date,
  work: () => Promise<T>,
  outsideReachOf: (result: T) => number = () => 0,
): Promise<T> {
  const key = probeKey(principal);
  const blocked = secondsBlocked(await readCounters(db, [key]), now);
  if (blocked > 0) throw tooManyProbes(blocked);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (error instanceof UserNameInUse) await countProbes(db, key, now, error.outsideReach);
    throw error;
  }
  await countProbes(db, key, now, outsideReachOf(result));
  return result;
}

async function countProbes(db: Kysely<Database>, key: string, now: Date, probes: number): Promise<void> {
  if (probes === 0) return;
  const counted = await countFailure(db, key, now, USER_NAME_PROBES, probes);
  if (counted.failures < USER_NAME_PROBES.maxFailures) return;
  const until = windowEnd(counted, USER_NAME_PROBES);
  await blockUntil(db, key, until);
  // The probe that reaches the ceiling is still answered; the ones past it learn nothing.
  if (counted.failures > USER_NAME_PROBES.maxFailures) {
    throw tooManyProbes(Math.ceil((until.getTime() - now.getTime()) / 1000));
  }
}
