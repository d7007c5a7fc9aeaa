import { keyOfTypeName, keyTypeName } from '../../../contract/certificate-policy.ts';
import {
  HARDWARE_TOKEN_KEY_ALGORITHM,
  HARDWARE_TOKEN_KEY_SIZE,
} from '../../../contract/trust-agent/constants.ts';
import {
  AGENT_EC_CURVES,
  type KeyParameters,
  type Mechanism,
} from '../../../contract/trust-agent/entities.ts';
import { keyRefusal } from '../../../contract/trust-agent/mechanisms.ts';

/**
 * The key made for an enrollment (decision 020 §10): a hardware token makes RSA 2048 (overview §5,
 * Q-43); in the software keystore the enrollee picks among the key types the certificate's profile
 * accepts and the keystore makes.
 */

/** The key a hardware token makes. */
export const HARDWARE_TOKEN_KEY: KeyParameters = {
  algorithm: HARDWARE_TOKEN_KEY_ALGORITHM,
  keySize: HARDWARE_TOKEN_KEY_SIZE,
};
/** The name of the hardware token's key among a profile's key types, and the enrollment's usual key (overview §9). */
const HARDWARE_TOKEN_KEY_TYPE = keyTypeName({ algorithm: 'RSA', size: HARDWARE_TOKEN_KEY_SIZE });

/** A key type the enrollee may pick: its name among the profile's, and what the agent is asked for. */
export interface KeyTypeChoice {
  name: string;
  key: KeyParameters;
}

/** The agent's request for a profile's key type; null for one no agent keystore makes (P-521). */
function agentKeyOf(name: string): KeyParameters | null {
  const key = keyOfTypeName(name);
  if (key?.algorithm === 'RSA') return { algorithm: 'RSA', keySize: key.size };
  const curve = AGENT_EC_CURVES.find((candidate) => candidate === key?.curve);
  return curve === undefined ? null : { algorithm: 'EC', curve };
}

/** The key types the profile accepts that a keystore of these mechanisms makes, in the profile's order. */
export function keyChoices(keyTypes: readonly string[], mechanisms: readonly Mechanism[]): KeyTypeChoice[] {
  return keyTypes.flatMap((name) => {
    const key = agentKeyOf(name);
    return key !== null && keyRefusal(mechanisms, key) === null ? [{ name, key }] : [];
  });
}

/** RSA 2048 when it is a choice, the key every verifier reads; otherwise the profile's first. */
export function defaultKeyChoice(choices: readonly KeyTypeChoice[]): KeyTypeChoice | undefined {
  return choices.find((choice) => choice.name === HARDWARE_TOKEN_KEY_TYPE) ?? choices[0];
}

/** Whether the profile accepts the key a hardware token makes: otherwise the CA would refuse its CSR. */
export function acceptsHardwareTokenKey(keyTypes: readonly string[]): boolean {
  return keyTypes.includes(HARDWARE_TOKEN_KEY_TYPE);
}
