import path from 'node:path';
import { PIN_ATTEMPT_LIMIT } from '../../contract/trust-agent/constants.ts';
import { CommandFailure } from '../failure.ts';
import { readJsonFile, writePrivateFile } from '../files.ts';
import { SerialQueue } from './queue.ts';

/** Why a PIN check failed, as the keystore found it. */
export class WrongPin extends Error {
  /** What the token itself still allows, where it tells (PKCS#11 CKF_USER_PIN_FINAL_TRY). */
  readonly tokenRetriesLeft: number | null;
  constructor(tokenRetriesLeft: number | null = null) {
    super('Wrong PIN');
    this.tokenRetriesLeft = tokenRetriesLeft;
  }
}

/**
 * The agent's own count of wrong PINs in a row per keystore (and per kind of PIN: user or security
 * officer), kept in the data directory so that restarting the agent does not reset it.
 * `PIN_ATTEMPT_LIMIT` wrong ones lock the keystore in the agent whatever the token's own counter says
 * (SoftHSM2 never locks; a software keystore has no counter at all): a page that got past pairing
 * still cannot guess a PIN. A right PIN resets the count.
 */
export class PinAttempts {
  readonly #file: string;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    this.#file = path.join(dataDir, 'pin-attempts.json');
  }

  #read(): Promise<Record<string, number>> {
    return readJsonFile<Record<string, number>>(this.#file, {});
  }

  /** Wrong PINs in a row for this keystore and kind of PIN. */
  async failures(key: string): Promise<number> {
    return (await this.#read())[key] ?? 0;
  }

  /** Attempts left before the agent locks the keystore. */
  async remaining(key: string): Promise<number> {
    return Math.max(0, PIN_ATTEMPT_LIMIT - (await this.failures(key)));
  }

  /** Forgets the count (a right PIN, a PIN reset by the security officer, a new keystore). */
  reset(key: string): Promise<void> {
    return this.#queue.run(async () => {
      const counts = await this.#read();
      if (!(key in counts)) return;
      delete counts[key];
      await writePrivateFile(this.#file, JSON.stringify(counts));
    });
  }

  /**
   * Runs a PIN check: refused at once when the agent's limit is reached; a `WrongPin` becomes
   * `pinIncorrect` with what is left (the lower of the agent's and the token's count), or `pinLocked`
   * when that was the last attempt.
   */
  async check<T>(key: string, attempt: () => Promise<T>): Promise<T> {
    if ((await this.remaining(key)) === 0) throw locked();
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      if (!(error instanceof WrongPin)) throw error;
      const left = await this.#queue.run(async () => {
        const counts = await this.#read();
        counts[key] = (counts[key] ?? 0) + 1;
        await writePrivateFile(this.#file, JSON.stringify(counts));
        return Math.max(0, PIN_ATTEMPT_LIMIT - counts[key]);
      });
      const retriesLeft = error.tokenRetriesLeft === null ? left : Math.min(left, error.tokenRetriesLeft);
      if (retriesLeft === 0) throw locked();
      throw new CommandFailure(
        'pinIncorrect',
        `The PIN is incorrect; ${retriesLeft} ${retriesLeft === 1 ? 'attempt is' : 'attempts are'} left before the keystore locks`,
        { retriesLeft },
      );
    }
    await this.reset(key);
    return result;
  }
}

export function locked(): CommandFailure {
  return new CommandFailure('pinLocked', 'The PIN is locked after too many wrong attempts');
}
