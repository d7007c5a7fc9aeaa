import {
  type KeyParameters,
  type Mechanism,
  SIGNATURE_KEY_ALGORITHMS,
  type SignatureAlgorithm,
} from '../../contract/trust-agent/entities.ts';
import { keyRefusal } from '../../contract/trust-agent/mechanisms.ts';
import { CommandFailure } from '../failure.ts';

/**
 * Refuses a key the keystore cannot make, before anything is generated and before the PIN is tried,
 * so a refused key costs no attempt (the codes are the contract's `keyRefusal`). Past it, the key is
 * of an algorithm the mechanisms name.
 */
export function checkKeyRequest<M extends Mechanism, K extends KeyParameters>(
  mechanisms: readonly M[],
  key: K,
): asserts key is Extract<K, { algorithm: M['algorithm'] }> {
  const refusal = keyRefusal(mechanisms, key);
  if (refusal === null) return;
  const { code, message, ...details } = refusal;
  throw new CommandFailure(code, message, details);
}

/** Refuses a signature algorithm that is not of the certificate's key: an RSA key makes no ECDSA signature. */
export function checkSignatureKey(
  algorithm: SignatureAlgorithm,
  keyAlgorithm: Mechanism['algorithm'] | null,
  serial: string,
): void {
  if (SIGNATURE_KEY_ALGORITHMS[algorithm] === keyAlgorithm) return;
  throw new CommandFailure(
    'invalidKeyType',
    `The key of certificate ${serial} is ${keyAlgorithm === null ? 'of another type' : `an ${keyAlgorithm} key`}: it cannot sign ${algorithm}`,
  );
}
