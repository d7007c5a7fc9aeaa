import type { Mechanism } from '../../contract/trust-agent/entities.ts';
import { CommandFailure } from '../failure.ts';

/**
 * Refuses a key the keystore cannot make, before anything is generated: an algorithm it has no
 * mechanism for (`invalidKeyType`), a size outside the mechanism's range (`keySizeBelowMinimum`,
 * `keySizeAboveMaximum`, with the range so the console can say it).
 */
export function checkKeyRequest(
  mechanisms: readonly Mechanism[],
  algorithm: string,
  keySize: number,
): Mechanism {
  const mechanism = mechanisms.find((item) => item.algorithm === algorithm);
  if (mechanism === undefined) {
    throw new CommandFailure('invalidKeyType', `This keystore cannot generate ${algorithm} keys`);
  }
  if (keySize < mechanism.minKeySize) {
    throw new CommandFailure(
      'keySizeBelowMinimum',
      `A ${keySize}-bit key is below this keystore's minimum of ${mechanism.minKeySize} bits`,
      { mechanism },
    );
  }
  if (keySize > mechanism.maxKeySize) {
    throw new CommandFailure(
      'keySizeAboveMaximum',
      `A ${keySize}-bit key is above this keystore's maximum of ${mechanism.maxKeySize} bits`,
      { mechanism },
    );
  }
  return mechanism;
}
