import 'reflect-metadata';
import { randomUUID, webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { apiPaths } from '../../../contract/paths.ts';
import type { ClientAuthCertificate } from '../../../contract/schemas/client-auth.ts';
import { call } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** Certificates made in the tests with EC P-256 keys (fast), signed by WebCrypto through @peculiar/x509. */

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface MadeCertificate {
  der: Uint8Array;
  pem: string;
  x509: x509.X509Certificate;
  keys: CryptoKeyPair;
}

function made(certificate: x509.X509Certificate, keys: CryptoKeyPair): MadeCertificate {
  return {
    der: new Uint8Array(certificate.rawData),
    pem: certificate.toString('pem'),
    x509: certificate,
    keys,
  };
}

function serial(): string {
  return `01${randomUUID().replaceAll('-', '').slice(0, 14)}`;
}

export async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** A self-signed certificate, as a user might upload one. */
export async function selfSigned(
  options: { cn?: string; notBefore?: Date; notAfter?: Date; ca?: boolean; extraName?: string } = {},
): Promise<MadeCertificate> {
  const keys = await newKeys();
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${options.cn ?? 'Uploaded Test'}${options.extraName ?? ''}`,
    notBefore: options.notBefore ?? new Date(now - DAY),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY),
    signingAlgorithm: EC,
    keys,
    extensions: options.ca ? [new x509.BasicConstraintsExtension(true, undefined, true)] : [],
  });
  return made(certificate, keys);
}

/** A certificate issued by `issuer`. */
export async function issuedBy(
  issuer: MadeCertificate,
  options: { cn: string; ca?: boolean; notAfter?: Date },
): Promise<MadeCertificate> {
  const keys = await newKeys();
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${options.cn}`,
    issuer: issuer.x509.subject,
    notBefore: new Date(now - DAY),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    extensions: options.ca
      ? [new x509.BasicConstraintsExtension(true, 0, true)]
      : [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])],
  });
  return made(certificate, keys);
}

/** The platform's root and issuing CA, stored as the CA core stores them, with their keys for the tests. */
export interface PlatformCa {
  root: MadeCertificate;
  issuing: MadeCertificate;
  issuingId: string;
}

async function insertCa(
  harness: TestApp,
  certificate: MadeCertificate,
  kind: 'root' | 'issuing',
  parentId: string | null,
): Promise<string> {
  const id = randomUUID();
  await harness.deps.db
    .insertInto('certificate_authorities')
    .values({
      id,
      kind,
      parent_id: parentId,
      key_algorithm: 'ECDSA-P256',
      key_custody: 'encrypted',
      sealed_private_key: new Uint8Array([0]),
      certificate: certificate.der,
      subject: certificate.x509.subject,
      serial_number: certificate.x509.serialNumber,
      not_before: certificate.x509.notBefore,
      not_after: certificate.x509.notAfter,
      sha256_fingerprint: randomUUID(),
      created_at: new Date(),
    })
    .execute();
  return id;
}

export async function insertPlatformCa(harness: TestApp): Promise<PlatformCa> {
  const root = await selfSigned({ cn: 'Test Root CA', ca: true });
  const issuing = await issuedBy(root, { cn: 'Test Issuing CA', ca: true });
  const rootId = await insertCa(harness, root, 'root', null);
  const issuingId = await insertCa(harness, issuing, 'issuing', rootId);
  return { root, issuing, issuingId };
}

/**
 * A client certificate the platform issued to `userId`, stored as issuance stores it (a
 * `certificates` row and an issued `client_auth_certificates` row); answers both ids.
 */
export async function insertIssuedClientCertificate(
  harness: TestApp,
  ca: PlatformCa,
  userId: string,
): Promise<{ certificate: MadeCertificate; certificateId: string; clientAuthId: string }> {
  const certificate = await issuedBy(ca.issuing, { cn: `client-${randomUUID().slice(0, 6)}` });
  const { fingerprint256 } = new X509Certificate(certificate.der);
  const certificateId = randomUUID();
  const clientAuthId = randomUUID();
  const now = new Date();
  await harness.deps.db
    .insertInto('certificates')
    .values({
      id: certificateId,
      serial_number: certificate.x509.serialNumber,
      issuer_id: ca.issuingId,
      account_id: null,
      profile_id: null,
      profile_name: null,
      source: 'client_auth',
      subject: certificate.x509.subject,
      common_name: certificate.x509.subject.replace(/^CN=/, ''),
      key_algorithm: 'EC P-256',
      not_before: certificate.x509.notBefore,
      not_after: certificate.x509.notAfter,
      certificate: certificate.der,
      sha256_fingerprint: fingerprint256,
      owner_user_id: userId,
      issued_by: null,
      created_at: now,
    })
    .execute();
  await harness.deps.db
    .insertInto('client_auth_certificates')
    .values({
      id: clientAuthId,
      user_id: userId,
      source: 'issued',
      certificate_id: certificateId,
      certificate: certificate.der,
      common_name: certificate.x509.subject.replace(/^CN=/, ''),
      not_after: certificate.x509.notAfter,
      sha256_fingerprint: fingerprint256,
      created_at: now,
      created_by: null,
    })
    .execute();
  return { certificate, certificateId, clientAuthId };
}

/** POST …/client-auth-certificate with the raw file (`application/x-x509-ca-cert`). */
export async function uploadFile(
  harness: TestApp,
  token: string,
  path: string,
  body: Uint8Array | string,
): Promise<Response> {
  return harness.app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-x509-ca-cert', Authorization: `Bearer ${token}` },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

/** Uploads a fresh self-signed certificate for `userId`; fails the test unless it is registered. */
export async function uploadedFor(
  harness: TestApp,
  token: string,
  userId: string,
  path = apiPaths.users.clientAuthCertificates(userId),
): Promise<ClientAuthCertificate> {
  const certificate = await selfSigned();
  const response = await call(harness, 'POST', path, { token, body: { certificate: certificate.pem } });
  if (response.status !== 201)
    throw new Error(`Upload answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { item: ClientAuthCertificate }).item;
}
