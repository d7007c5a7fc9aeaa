/**
 * @peculiar/x509 and PKI.js on Node's WebCrypto, the one place the agent loads them: the x509
 * decorators need reflect-metadata first, and both libraries take their crypto provider from here.
 */
import 'reflect-metadata';
import { createPublicKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { distinguishedNameText } from '../../contract/distinguished-name.ts';
import { CSR_PEM_LINE_LENGTH } from '../../contract/trust-agent/constants.ts';
import type {
  AgentCertificate,
  AgentEcCurve,
  KeyParameters,
  Mechanism,
} from '../../contract/trust-agent/entities.ts';

/** The WebCrypto types as @peculiar/x509 declares them (Node's and a PKCS#11 token's both fit). */
export type WebCrypto = NonNullable<Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[1]>;
export type WebCryptoKeyPair = Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'];
type Bytes = ArrayBuffer | Uint8Array<ArrayBuffer>;

export const nodeCrypto = webcrypto as unknown as WebCrypto;
x509.cryptoProvider.set(nodeCrypto);
pkijs.setEngine(
  'node',
  new pkijs.CryptoEngine({
    name: 'node',
    crypto: webcrypto as unknown as ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'],
  }),
);

export { pkijs, x509 };

export const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** Each curve signs with the hash of its strength, as the platform's CA does (decision 019). */
const CURVE_HASHES: Record<AgentEcCurve, string> = { 'P-256': 'SHA-256', 'P-384': 'SHA-384' };

/** The WebCrypto parameters of a key: how it is generated, and how it signs its own CSR. */
export function keyAlgorithms(key: KeyParameters): {
  generate: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams;
  csr: webcrypto.RsaHashedImportParams | webcrypto.EcdsaParams;
} {
  if (key.algorithm === 'RSA') {
    return {
      generate: { ...RSA_SHA256, modulusLength: key.keySize, publicExponent: new Uint8Array([1, 0, 1]) },
      csr: RSA_SHA256,
    };
  }
  return {
    generate: { name: 'ECDSA', namedCurve: key.curve },
    csr: { name: 'ECDSA', hash: CURVE_HASHES[key.curve] },
  };
}

/** The algorithm of a certificate's key in the contract's names; null for a key of another kind. */
export function keyAlgorithmOf(certificate: x509.X509Certificate): Mechanism['algorithm'] | null {
  const { asymmetricKeyType } = createPublicKey({
    key: Buffer.from(certificate.publicKey.rawData),
    format: 'der',
    type: 'spki',
  });
  if (asymmetricKeyType === 'rsa') return 'RSA';
  if (asymmetricKeyType === 'ec') return 'EC';
  return null;
}

/** A certificate's serial as the contract writes it: hexadecimal, lower case, no leading zeros. */
export function serialHex(certificate: x509.X509Certificate): string {
  return certificate.serialNumber.toLowerCase().replace(/^0+(?=.)/, '');
}

/** PEM with lines of 64 characters (overview §3), whatever the encoder's habit. */
export function pem(label: string, der: Bytes): string {
  const base64 = Buffer.from(der instanceof ArrayBuffer ? new Uint8Array(der) : der).toString('base64');
  const lines = base64.match(new RegExp(`.{1,${CSR_PEM_LINE_LENGTH}}`, 'g')) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The fields of the contract's certificate shape that come from the certificate itself. */
export function describeCertificate(
  certificate: x509.X509Certificate,
): Omit<AgentCertificate, 'keystoreId' | 'hasPrivateKey'> {
  return {
    serial: serialHex(certificate),
    subject: distinguishedNameText(certificate.subjectName.toJSON()),
    issuer: distinguishedNameText(certificate.issuerName.toJSON()),
    validity: {
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
    },
    pem: pem('CERTIFICATE', certificate.rawData),
  };
}

/**
 * The certificates in a file a user picked: one certificate in PEM or DER, several PEM blocks, or a
 * PKCS#7 certs-only bundle (PEM or DER).
 */
export function parseCertificates(data: Uint8Array): x509.X509Certificate[] {
  const text = Buffer.from(data).toString('latin1');
  if (text.includes('-----BEGIN')) {
    return x509.PemConverter.decodeWithHeaders(text).flatMap((block) => {
      if (block.type === 'CERTIFICATE') return [new x509.X509Certificate(block.rawData)];
      if (block.type === 'PKCS7') return [...new x509.X509Certificates(block.rawData)];
      return [];
    });
  }
  const der = new Uint8Array(data);
  try {
    return [new x509.X509Certificate(der)];
  } catch {
    return [...new x509.X509Certificates(der)];
  }
}

/** The one certificate of a PEM or DER text, or null when it holds none or several. */
export function parseCertificatePem(text: string): x509.X509Certificate | null {
  try {
    const [certificate, ...rest] = parseCertificates(Buffer.from(text, 'latin1'));
    return certificate !== undefined && rest.length === 0 ? certificate : null;
  } catch {
    return null;
  }
}

/** The keystores' key identifier: SHA-1 of the public key's bits (RFC 5280 §4.2.1.2, method 1), hex. */
export async function keyIdOf(spki: Bytes): Promise<string> {
  return Buffer.from(await new x509.PublicKey(spki).getKeyIdentifier(nodeCrypto)).toString('hex');
}

/**
 * A PKCS#10 request for `CN=<commonName>` signed by the private key with `signingAlgorithm` (and
 * the crypto that holds the key: Node's or a token's), as PEM wrapped at 64 characters.
 */
export async function createCsr(
  commonName: string,
  keys: WebCryptoKeyPair,
  signingAlgorithm: ReturnType<typeof keyAlgorithms>['csr'],
  crypto: WebCrypto,
): Promise<string> {
  const request = await x509.Pkcs10CertificateRequestGenerator.create(
    // The name as a structure, not a string: a common name with a comma stays one attribute.
    { name: [{ CN: [commonName] }], keys, signingAlgorithm },
    crypto,
  );
  return pem('CERTIFICATE REQUEST', request.rawData);
}
