import { ECParameters } from '@peculiar/asn1-ecc';
import { RSAPublicKey } from '@peculiar/asn1-rsa';
import { AsnConvert } from '@peculiar/asn1-schema';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import type { KeyDescription } from '../../contract/certificate-policy.ts';

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const CURVES: Record<string, string> = {
  '1.2.840.10045.3.1.7': 'P-256',
  '1.3.132.0.34': 'P-384',
  '1.3.132.0.35': 'P-521',
};
const OTHER_ALGORITHMS: Record<string, string> = {
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
  '1.3.101.110': 'X25519',
  '1.3.101.111': 'X448',
  '1.2.840.10040.4.1': 'DSA',
  '1.2.840.113549.1.1.10': 'RSA-PSS',
};

/** What a public key is: a key this CA can describe, or why it cannot. */
export type SpkiDescription =
  | { kind: 'key'; key: KeyDescription }
  /** RSA below 2048 bits or an elliptic curve other than P-256, P-384 and P-521. */
  | { kind: 'weak'; label: string }
  /** Not RSA or EC at all (Ed25519, DSA, …). */
  | { kind: 'unsupported'; label: string };

function bitLength(integer: ArrayBuffer): number {
  const bytes = new Uint8Array(integer);
  let index = 0;
  while (index < bytes.length && bytes[index] === 0) index++;
  if (index === bytes.length) return 0;
  return (bytes.length - index - 1) * 8 + (32 - Math.clz32(bytes[index] ?? 0));
}

/** Reads a SubjectPublicKeyInfo (DER): RSA with its modulus size, EC with its named curve. */
export function describeSpki(spki: ArrayBuffer | Uint8Array): SpkiDescription {
  const info = AsnConvert.parse(spki, SubjectPublicKeyInfo);
  const oid = info.algorithm.algorithm;
  if (oid === RSA_ENCRYPTION) {
    const size = bitLength(AsnConvert.parse(info.subjectPublicKey, RSAPublicKey).modulus);
    return size < 2048
      ? { kind: 'weak', label: `RSA ${size}` }
      : { kind: 'key', key: { algorithm: 'RSA', size } };
  }
  if (oid === EC_PUBLIC_KEY) {
    const parameters = info.algorithm.parameters;
    let curveOid = 'explicit parameters';
    try {
      if (parameters) curveOid = AsnConvert.parse(parameters, ECParameters).namedCurve ?? curveOid;
    } catch {
      // Explicit curve parameters: not a named curve.
    }
    const curve = CURVES[curveOid];
    return curve === undefined
      ? { kind: 'weak', label: `EC (curve ${curveOid})` }
      : { kind: 'key', key: { algorithm: 'EC', curve } };
  }
  return { kind: 'unsupported', label: OTHER_ALGORITHMS[oid] ?? `algorithm ${oid}` };
}
