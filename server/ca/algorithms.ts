import type { webcrypto } from 'node:crypto';
import type { CaKeyAlgorithm } from '../../contract/certificate-policy.ts';
import type { SigningAlgorithm } from './x509.ts';

/** WebCrypto parameters of a CA key algorithm: how its key is generated and how it signs. */
export interface CaAlgorithmParams {
  generate: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams;
  /** The import parameters of its PKCS#8 key. */
  import: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams;
  signing: SigningAlgorithm;
}

/**
 * ECDSA signs with the hash that matches the curve's strength (SHA-256 for P-256, SHA-384 for
 * P-384); RSA CAs sign with PKCS#1 v1.5 and SHA-256 (SHA-384 for 3072 bits and above), which every
 * verifier reads.
 */
export function caAlgorithmParams(algorithm: CaKeyAlgorithm): CaAlgorithmParams {
  switch (algorithm) {
    case 'ECDSA-P256':
    case 'ECDSA-P384': {
      const namedCurve = algorithm === 'ECDSA-P256' ? 'P-256' : 'P-384';
      const hash = algorithm === 'ECDSA-P256' ? 'SHA-256' : 'SHA-384';
      return {
        generate: { name: 'ECDSA', namedCurve },
        import: { name: 'ECDSA', namedCurve },
        signing: { name: 'ECDSA', hash },
      };
    }
    case 'RSA-2048':
    case 'RSA-3072':
    case 'RSA-4096': {
      const modulusLength = Number(algorithm.slice(4));
      const hash = modulusLength >= 3072 ? 'SHA-384' : 'SHA-256';
      return {
        generate: {
          name: 'RSASSA-PKCS1-v1_5',
          modulusLength,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash,
        },
        import: { name: 'RSASSA-PKCS1-v1_5', hash },
        signing: { name: 'RSASSA-PKCS1-v1_5', hash },
      };
    }
  }
}
