import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { describeKey } from '../../contract/certificate-policy.ts';
import { distinguishedNameText } from '../../contract/distinguished-name.ts';
import type { DistinguishedName, ParsedCertificate } from '../../contract/schemas/certificate-authority.ts';
import { describeSpki } from './keys.ts';
import { x509 } from './x509.ts';

const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** The parts of a name the console shows, and the whole name in RFC 4514 (most specific first). */
export function describeName(name: x509.Name): DistinguishedName {
  const rdns = name.toJSON();
  const first = (...types: string[]): string | null => {
    for (const rdn of rdns) {
      for (const [type, values] of Object.entries(rdn)) {
        if (types.includes(type) && values[0] !== undefined) return values[0];
      }
    }
    return null;
  };
  const distinguishedName = distinguishedNameText(rdns);
  return {
    distinguished_name: distinguishedName,
    common_name: first('CN', '2.5.4.3'),
    organizational_unit: first('OU', '2.5.4.11'),
    organization: first('O', '2.5.4.10'),
    locality: first('L', '2.5.4.7'),
    state: first('ST', '2.5.4.8'),
    country: first('C', '2.5.4.6'),
    email: first('E', 'emailAddress', '1.2.840.113549.1.9.1'),
  };
}

function colonHex(data: ArrayBuffer): string {
  return [...new Uint8Array(data)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** The key of a certificate as the console shows it ("RSA 2048", "EC P-256", "Ed25519"). */
export function certificateKeyAlgorithm(certificate: x509.X509Certificate): string {
  const key = describeSpki(certificate.publicKey.rawData);
  return key.kind === 'key' ? describeKey(key.key) : key.label;
}

/** Reads one certificate (DER or PEM); throws when it is not an X.509 certificate. */
export function readCertificate(data: Uint8Array | string): x509.X509Certificate {
  return new x509.X509Certificate(typeof data === 'string' ? data : Buffer.from(data));
}

/**
 * The parsed details of a certificate (overview §3): issuer and subject with their parts, validity
 * and whether `now` lies within it, version, serial (lower-case hex), SHA-256 and SHA-1
 * fingerprints (colon-separated upper-case pairs, as openssl prints them), key and signature
 * algorithm. Throws when `der` is not an X.509 certificate.
 */
export async function describeCertificate(
  der: Uint8Array | x509.X509Certificate,
  now: Date,
): Promise<ParsedCertificate> {
  const certificate = der instanceof x509.X509Certificate ? der : readCertificate(der);
  const [sha256, sha1] = await Promise.all([
    certificate.getThumbprint('SHA-256'),
    certificate.getThumbprint('SHA-1'),
  ]);
  const asn = AsnConvert.parse(certificate.rawData, Certificate);
  const signatureOid = asn.signatureAlgorithm.algorithm;
  return {
    issuer: describeName(certificate.issuerName),
    subject: describeName(certificate.subjectName),
    validFrom: certificate.notBefore.toISOString(),
    validTo: certificate.notAfter.toISOString(),
    isValid: certificate.notBefore <= now && now <= certificate.notAfter,
    version: asn.tbsCertificate.version + 1,
    serial_number: certificate.serialNumber.toLowerCase().replace(/^(00)+(?=.)/, ''),
    sha256_fingerprint: colonHex(sha256),
    sha1_fingerprint: colonHex(sha1),
    key_algorithm: certificateKeyAlgorithm(certificate),
    signature_algorithm: SIGNATURE_ALGORITHMS[signatureOid] ?? signatureOid,
  };
}
