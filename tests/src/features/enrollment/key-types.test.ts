import { describe, expect, it } from 'vitest';
import type { Mechanism } from '../../../../contract/trust-agent/entities.ts';
import {
  acceptsHardwareTokenKey,
  defaultKeyChoice,
  keyChoices,
} from '../../../../src/features/enrollment/key-types.ts';

const SOFTWARE: Mechanism[] = [
  { algorithm: 'RSA', minKeySize: 2048, maxKeySize: 4096 },
  { algorithm: 'EC', curves: ['P-256', 'P-384'] },
];

describe("the enrollment's key types", () => {
  it('are those of the profile the keystore makes, in the profile order, with what the agent is asked for', () => {
    expect(keyChoices(['ECDSA-P521', 'ECDSA-P384', 'RSA-3072', 'Ed25519'], SOFTWARE)).toEqual([
      { name: 'ECDSA-P384', key: { algorithm: 'EC', curve: 'P-384' } },
      { name: 'RSA-3072', key: { algorithm: 'RSA', keySize: 3072 } },
    ]);
    expect(keyChoices(['ECDSA-P256'], [{ algorithm: 'RSA', minKeySize: 1024, maxKeySize: 4096 }])).toEqual(
      [],
    );
  });

  it('default to RSA 2048 when the profile accepts it, else to its first', () => {
    expect(defaultKeyChoice(keyChoices(['ECDSA-P256', 'RSA-2048'], SOFTWARE))?.name).toBe('RSA-2048');
    expect(defaultKeyChoice(keyChoices(['RSA-4096', 'ECDSA-P256'], SOFTWARE))?.name).toBe('RSA-4096');
    expect(defaultKeyChoice([])).toBeUndefined();
  });

  it('let a hardware token enroll only when the profile accepts its RSA 2048', () => {
    expect(acceptsHardwareTokenKey(['RSA-3072', 'RSA-2048'])).toBe(true);
    expect(acceptsHardwareTokenKey(['RSA-3072', 'ECDSA-P256'])).toBe(false);
  });
});
