import type { CommandError } from './commands.ts';
import type { KeyParameters, Mechanism } from './entities.ts';

/**
 * Whether a keystore with these mechanisms makes the key (overview §5): null, or the refusal the
 * agent answers before anything is generated: `invalidKeyType` for an algorithm it has no mechanism
 * for or a curve it does not make, `keySizeBelowMinimum` or `keySizeAboveMaximum` for an RSA size
 * outside its range. The refusal carries the mechanism, so a page can name the range or the curves.
 * The agent refuses with it; the console checks with it before it asks, with the same codes.
 */
export function keyRefusal(mechanisms: readonly Mechanism[], key: KeyParameters): CommandError | null {
  if (key.algorithm === 'RSA') {
    const mechanism = mechanisms.find((item) => item.algorithm === 'RSA');
    if (mechanism === undefined) return noMechanism('RSA');
    if (key.keySize < mechanism.minKeySize) {
      return {
        code: 'keySizeBelowMinimum',
        message: `A ${key.keySize}-bit key is below this keystore's minimum of ${mechanism.minKeySize} bits`,
        mechanism,
      };
    }
    if (key.keySize > mechanism.maxKeySize) {
      return {
        code: 'keySizeAboveMaximum',
        message: `A ${key.keySize}-bit key is above this keystore's maximum of ${mechanism.maxKeySize} bits`,
        mechanism,
      };
    }
    return null;
  }
  const mechanism = mechanisms.find((item) => item.algorithm === 'EC');
  if (mechanism === undefined) return noMechanism('EC');
  if (!mechanism.curves.includes(key.curve)) {
    const made = mechanism.curves.length === 0 ? 'no curve' : mechanism.curves.join(', ');
    return {
      code: 'invalidKeyType',
      message: `This keystore makes EC keys on ${made}, not on ${key.curve}`,
      mechanism,
    };
  }
  return null;
}

function noMechanism(algorithm: Mechanism['algorithm']): CommandError {
  return { code: 'invalidKeyType', message: `This keystore cannot generate ${algorithm} keys` };
}
