import 'reflect-metadata';
import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { ProfilePolicy, RevocationReason } from '../../../contract/certificate-policy.ts';
import type { CertificateSource } from '../../../contract/schemas/certificates.ts';
import { insertTestProfile as insertCaTestProfile, insertTestCa, TEST_POLICY } from '../ca/helpers.ts';
import type { TestApp } from '../test-app.ts';

/**
 * Certificates stored as the issuing CA stores them, signed by a small test hierarchy (root and
 * issuing CA, EC P-256) made here: the suites of the certificates list, details and exports read real
 * X.509 without depending on how the CA issues.
 */

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
}

export interface TestHierarchy {
  root: { id: string; certificate: x509.X509Certificate };
  issuing: { id: string; certificate: x509.X509Certificate; keys: CryptoKeyPair };
}

/** A root and an issuing CA, stored as the platform's working pair. */
export async function insertTestHierarchy(harness: TestApp): Promise<TestHierarchy> {
  const now = harness.deps.now();
  const rootKeys = await keyPair();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: 'CN=Test Root CA, O=Trust Console Tests, C=DE',
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + 3650 * DAY),
    signingAlgorithm: EC,
    keys: rootKeys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const issuingKeys = await keyPair();
  const issuing = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8).toString('hex'),
    subject: 'CN=Test Issuing CA, O=Trust Console Tests, C=DE',
    issuer: root.subject,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + 1825 * DAY),
    signingAlgorithm: EC,
    publicKey: issuingKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  const rootId = await insertTestCa(harness, 'root', root, null);
  const issuingId = await insertTestCa(harness, 'issuing', issuing, rootId);
  return {
    root: { id: rootId, certificate: root },
    issuing: { id: issuingId, certificate: issuing, keys: issuingKeys },
  };
}

export interface TestCertificateOptions {
  commonName?: string;
  accountId: string | null;
  profile?: { id: string | null; name: string };
  source?: CertificateSource;
  /** Days from now; the certificate is valid from a day before it was issued. */
  validDays?: number;
  issuedAt?: Date;
  revoked?: { at: Date; reason: RevocationReason };
  subject?: string;
}

/** Issues and stores one end-entity certificate; answers its id and serial. */
export async function insertTestCertificate(
  harness: TestApp,
  hierarchy: TestHierarchy,
  options: TestCertificateOptions,
): Promise<{ id: string; serial: string; der: Uint8Array }> {
  const issuedAt = options.issuedAt ?? harness.deps.now();
  const commonName = options.commonName ?? `device-${randomUUID().slice(0, 8)}.example.com`;
  const subject = options.subject ?? `CN=${commonName}, OU=Devices, O=Example Org, L=Berlin, ST=Berlin, C=DE`;
  // Sixteen bytes, positive and without a leading zero, as openssl prints it.
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10;
  const serial = bytes.toString('hex');
  const keys = await keyPair();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject,
    issuer: hierarchy.issuing.certificate.subject,
    notBefore: new Date(issuedAt.getTime() - DAY),
    notAfter: new Date(issuedAt.getTime() + (options.validDays ?? 365) * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: hierarchy.issuing.keys.privateKey,
  });
  const id = randomUUID();
  const der = new Uint8Array(certificate.rawData);
  await harness.deps.db
    .insertInto('certificates')
    .values({
      id,
      serial_number: serial,
      issuer_id: hierarchy.issuing.id,
      account_id: options.accountId,
      profile_id: options.profile?.id ?? null,
      profile_name: options.profile?.name ?? null,
      source: options.source ?? 'profile',
      subject: certificate.subject,
      common_name: commonName,
      key_algorithm: 'EC P-256',
      not_before: certificate.notBefore,
      not_after: certificate.notAfter,
      certificate: der,
      sha256_fingerprint: Buffer.from(await certificate.getThumbprint('SHA-256')).toString('hex'),
      owner_user_id: null,
      issued_by: null,
      created_at: issuedAt,
      revoked_at: options.revoked?.at ?? null,
      revocation_reason: options.revoked?.reason ?? null,
      revoked_by: null,
    })
    .execute();
  return { id, serial, der };
}

/** The policy of the certificates suites' profiles: a device variant of TEST_POLICY. */
const DEVICE_POLICY: ProfilePolicy = {
  ...TEST_POLICY,
  subject: { ...TEST_POLICY.subject, user_principal_names: 'not_allowed' },
  key_usages: ['DigitalSignature'],
  key_types: { rsa: [2048], ec: ['P-256'] },
};

/** A certificate profile of `accountId`, as the profiles screens store one. */
export function insertTestProfile(
  harness: TestApp,
  accountId: string,
  name = `Profile ${randomUUID().slice(0, 6)}`,
): Promise<{ id: string; name: string }> {
  return insertCaTestProfile(harness, accountId, { name, policy: DEVICE_POLICY });
}
