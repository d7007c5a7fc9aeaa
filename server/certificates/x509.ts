import 'reflect-metadata';
import { createHash, X509Certificate as NodeCertificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { describeKey } from '../../contract/certificate-policy.ts';
import type { DistinguishedName, ParsedCertificate } from '../../contract/schemas/certificate-authority.ts';

/** A DER block as PEM, wrapped at 64 characters. */
export function derToPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The certificate then its chain as one PKCS#7 (certs-only) SignedData, DER. */
export function pkcs7Der(certificate: Uint8Array, chain: readonly Uint8Array[]): Uint8Array {
  const bundle = new x509.X509Certificates(
    [certificate, ...chain].map((der) => new x509.X509Certificate(Buffer.from(der))),
  );
  return new Uint8Array(bundle.export('raw'));
}

function colonHex(digest: Buffer): string {
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

function nameParts(name: x509.Name): DistinguishedName {
  const first = (type: string) => name.getField(type)[0] ?? null;
  return {
    distinguished_name: name.toString(),
    common_name: first('CN'),
    organizational_unit: name.getField('OU').join(', ') || null,
    organization: first('O'),
    locality: first('L'),
    state: first('ST'),
    country: first('C'),
    email: first('E') ?? first('1.2.840.113549.1.9.1'),
  };
}

/** The signature algorithm as people name it: "ECDSA with SHA-256", "RSASSA-PKCS1-v1_5 with SHA-384". */
function signatureAlgorithmName(certificate: x509.X509Certificate): string {
  const algorithm = certificate.signatureAlgorithm as { name: string; hash?: { name: string } };
  return algorithm.hash ? `${algorithm.name} with ${algorithm.hash.name}` : algorithm.name;
}

function keyAlgorithmName(der: Uint8Array): string {
  const key = new NodeCertificate(Buffer.from(der)).publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa')
    return describeKey({ algorithm: 'RSA', size: details.modulusLength ?? 0 });
  if (key.asymmetricKeyType === 'ec') {
    const curves: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };
    const curve = details.namedCurve ?? '';
    return describeKey({ algorithm: 'EC', curve: curves[curve] ?? curve });
  }
  return (key.asymmetricKeyType ?? 'unknown').toUpperCase();
}

/** The parsed details of a certificate (overview §3) as the console shows them, at `now`. */
export function certificateDetails(der: Uint8Array, now: Date): ParsedCertificate {
  const certificate = new x509.X509Certificate(Buffer.from(der));
  const bytes = Buffer.from(der);
  return {
    issuer: nameParts(new x509.Name(certificate.issuerName.toArrayBuffer())),
    subject: nameParts(new x509.Name(certificate.subjectName.toArrayBuffer())),
    validFrom: certificate.notBefore.toISOString(),
    validTo: certificate.notAfter.toISOString(),
    isValid: certificate.notBefore <= now && now <= certificate.notAfter,
    // Stored zero-based: v3 is 2.
    version: pkijs.Certificate.fromBER(bytes).version + 1,
    serial_number: certificate.serialNumber.toLowerCase(),
    sha256_fingerprint: colonHex(createHash('sha256').update(bytes).digest()),
    sha1_fingerprint: colonHex(createHash('sha1').update(bytes).digest()),
    key_algorithm: keyAlgorithmName(der),
    signature_algorithm: signatureAlgorithmName(certificate),
  };
}
