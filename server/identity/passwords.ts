import { hash, type Options, verify } from '@node-rs/argon2';
import { FairGate, TooBusy } from '../http/fair-gate.ts';

/**
 * argon2id with the OWASP minimum (ASVS appendix C: m = 19 MiB, t = 2, p = 1). `algorithm: 2` is
 * argon2id; the package's `Algorithm` const enum cannot be imported under `verbatimModuleSyntax`.
 */
const ARGON2ID_OPTIONS: Options = {
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}

/**
 * A hash of a random password nobody knows, made once per process. Verifying against it when the
 * user does not exist (or has no password) costs the same as a real check, so the response time
 * does not tell an attacker which user names exist (ASVS 6.3.8).
 */
let dummyHash: Promise<string> | undefined;

function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID()).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}

/**
 * True when `password` matches `passwordHash`. A missing hash still runs a full argon2 verification
 * and answers false. A stored hash that cannot be parsed answers false rather than throwing: the
 * caller reports "invalid username or password", never a 500 that singles out that user.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verify(await dummyPasswordHash(), password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Starts computing the dummy hash so the first unknown-user sign-in is not the one that pays for it. */
export function warmUpPasswordHashing(): void {
  // A failure resurfaces, and is retried, in the first verification that needs the hash.
  dummyPasswordHash().catch(() => undefined);
}

/**
 * Every argon2id computation a request asks for waits its turn here (decision 005): one at a time
 * per process, so hashing never takes more than one core and the thread pool from everyone else
 * (20 to 50 a second per process is far beyond what sign-in needs; more processes serve more), taken
 * round-robin over clients, and refused at once beyond four waiting from one client.
 */
const passwordHashing = new FairGate({ concurrency: 1, perLane: 4, waiting: 256 });

/**
 * Runs `work` (a `hashPassword` or `verifyPassword`) in `client`'s turn: the client's address, or a
 * better name for it where there is one (its trusted device, its signed-in user).
 */
export function inPasswordHashingTurn<T>(client: string, work: () => Promise<T>): Promise<T> {
  return passwordHashing.run(
    client,
    work,
    () => new TooBusy('Too many requests from this client are waiting. Try again in a moment.', 1),
  );
}
