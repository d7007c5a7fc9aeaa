import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_AUTH_POLICY,
  keyOfTypeName,
  keyTypeName,
  policyKeyTypeNames,
} from '../../contract/certificate-policy.ts';
import { commandSchemas } from '../../contract/trust-agent/commands.ts';
import { type Mechanism, mechanismSchema } from '../../contract/trust-agent/entities.ts';
import { keyRefusal } from '../../contract/trust-agent/mechanisms.ts';

const target = { keystoreId: 'software', pin: '2468', subject: { commonName: 'Grace Hopper' } };

/** The dotted path of each issue of a refused request, or [] when it is accepted. */
function refusedAt(schema: v.GenericSchema, input: unknown): string[] {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '');
}

describe("the trust agent's key requests", () => {
  it('generate takes an RSA key by its size or an EC key by its curve, nothing mixed', () => {
    const generate = commandSchemas.generate.request;
    expect(refusedAt(generate, { ...target, algorithm: 'RSA', keySize: 3072 })).toEqual([]);
    expect(refusedAt(generate, { ...target, algorithm: 'EC', curve: 'P-256' })).toEqual([]);
    expect(refusedAt(generate, { ...target, algorithm: 'EC', curve: 'P-384' })).toEqual([]);
    expect(refusedAt(generate, { ...target, algorithm: 'EC', curve: 'P-521' })).toEqual(['curve']);
    expect(refusedAt(generate, { ...target, algorithm: 'EC', keySize: 256 })).toContain('curve');
    expect(refusedAt(generate, { ...target, algorithm: 'EC', curve: 'P-256', keySize: 256 })).toEqual([
      'keySize',
    ]);
    expect(refusedAt(generate, { ...target, algorithm: 'RSA', curve: 'P-256' })).toContain('keySize');
    expect(refusedAt(generate, { ...target, algorithm: 'DSA', keySize: 2048 })).toEqual(['algorithm']);
  });

  it('sign takes RSASSA-PKCS1-v1_5 and ECDSA, both with SHA-256', () => {
    const sign = commandSchemas.sign.request;
    const request = { keystoreId: 'software', pin: '2468', serial: '1f00', data: 'AA==' };
    expect(refusedAt(sign, { ...request, algorithm: 'RSASSA-PKCS1-v1_5-SHA-256' })).toEqual([]);
    expect(refusedAt(sign, { ...request, algorithm: 'ECDSA-SHA-256' })).toEqual([]);
    expect(refusedAt(sign, { ...request, algorithm: 'ECDSA-SHA-384' })).toEqual(['algorithm']);
  });

  it('a mechanism is an RSA size range or a list of EC curves', () => {
    expect(refusedAt(mechanismSchema, { algorithm: 'EC', curves: ['P-256', 'P-384'] })).toEqual([]);
    expect(refusedAt(mechanismSchema, { algorithm: 'EC', minKeySize: 256, maxKeySize: 384 })).toEqual([
      'curves',
    ]);
    expect(refusedAt(mechanismSchema, { algorithm: 'RSA', curves: ['P-256'] })).toContain('minKeySize');
  });
});

describe('keyRefusal, the check of the agent and of the console before a key is made', () => {
  const rsa: Mechanism = { algorithm: 'RSA', minKeySize: 2048, maxKeySize: 4096 };
  const ec: Mechanism = { algorithm: 'EC', curves: ['P-256'] };

  it('accepts what the mechanisms make', () => {
    expect(keyRefusal([rsa, ec], { algorithm: 'RSA', keySize: 3072 })).toBeNull();
    expect(keyRefusal([rsa, ec], { algorithm: 'EC', curve: 'P-256' })).toBeNull();
  });

  it('refuses an RSA size outside the range with the range', () => {
    expect(keyRefusal([rsa], { algorithm: 'RSA', keySize: 1024 })).toMatchObject({
      code: 'keySizeBelowMinimum',
      mechanism: rsa,
    });
    expect(keyRefusal([rsa], { algorithm: 'RSA', keySize: 8192 })).toMatchObject({
      code: 'keySizeAboveMaximum',
      mechanism: rsa,
    });
  });

  it('refuses an algorithm without a mechanism, and a curve the keystore does not make, as invalidKeyType', () => {
    expect(keyRefusal([rsa], { algorithm: 'EC', curve: 'P-256' })).toEqual({
      code: 'invalidKeyType',
      message: 'This keystore cannot generate EC keys',
    });
    expect(keyRefusal([ec], { algorithm: 'RSA', keySize: 2048 })?.code).toBe('invalidKeyType');
    expect(keyRefusal([rsa, ec], { algorithm: 'EC', curve: 'P-384' })).toEqual({
      code: 'invalidKeyType',
      message: 'This keystore makes EC keys on P-256, not on P-384',
      mechanism: ec,
    });
  });
});

describe("a profile's key type names", () => {
  it('are the CA algorithm names, RSA first, and each names its key again', () => {
    const names = policyKeyTypeNames(CLIENT_AUTH_POLICY);
    expect(names).toEqual(['RSA-2048', 'RSA-3072', 'RSA-4096', 'ECDSA-P256', 'ECDSA-P384']);
    for (const name of names) {
      const key = keyOfTypeName(name);
      expect(key && keyTypeName(key)).toBe(name);
    }
    expect(keyOfTypeName('ECDSA-P521')).toEqual({ algorithm: 'EC', curve: 'P-521' });
    expect(keyOfTypeName('RSA-1024')).toBeUndefined();
    expect(keyOfTypeName('Ed25519')).toBeUndefined();
  });
});
