import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { ProfilePolicy } from '../../../contract/certificate-policy.ts';
import type { AppDeps } from '../../../server/app-deps.ts';
import {
  ensureCertificateAuthorities,
  type WorkingCertificateAuthorities,
} from '../../../server/ca/bootstrap.ts';
import { certificatePem, crlPem } from '../../../server/ca/export.ts';
import { nodeCrypto, x509 } from '../../../server/ca/x509.ts';
import type { TestApp } from '../test-app.ts';

export interface TestCertificateAuthority extends WorkingCertificateAuthorities {
  /** The root's and the issuing CA's certificates, PEM. */
  rootPem: string;
  issuingPem: string;
  /** The CRLs as they are now in the database, PEM (root's, issuing CA's). */
  crlsPem: () => Promise<{ root: string; issuing: string }>;
}

/**
 * Creates the platform's root and issuing CA in a test app's database, as the server does at start
 * (server/ca/bootstrap.ts), with keys sealed under a key-encryption key written into the app's data
 * directory. Call it with `testApp.deps` before issuing or revoking: `issueCertificate(deps, …)` and
 * `revokeCertificate(deps, …)` then work in that app and its routes.
 */
export async function withCertificateAuthority(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
): Promise<TestCertificateAuthority> {
  const custody = deps.config.caCustody;
  if (custody.kind === 'encrypted' && custody.generated) {
    // Written here, so the server's "created the key-encryption key" line stays out of test output.
    await writeFile(custody.keyFile, randomBytes(32), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  }
  const working = await ensureCertificateAuthorities(deps);
  return {
    ...working,
    rootPem: certificatePem(working.root.certificate),
    issuingPem: certificatePem(working.issuing.certificate),
    crlsPem: async () => {
      const rows = await deps.db
        .selectFrom('certificate_authorities')
        .select(['id', 'crl'])
        .where('id', 'in', [working.root.id, working.issuing.id])
        .execute();
      const crl = (id: string) => {
        const der = rows.find((row) => row.id === id)?.crl;
        if (!der) throw new Error(`CA ${id} has no CRL.`);
        return crlPem(der);
      };
      return { root: crl(working.root.id), issuing: crl(working.issuing.id) };
    },
  };
}

export type TestKeyType = 'EC P-256' | 'EC P-384' | 'RSA 2048' | 'RSA 1024';

/** A fresh key pair and a PKCS#10 request signed with it, PEM; its subject is never copied. */
export async function createCsr(
  keyType: TestKeyType = 'EC P-256',
  subject = 'CN=requested-by-the-csr',
): Promise<{ pem: string; keys: CryptoKeyPair }> {
  const algorithm = keyType.startsWith('EC')
    ? { name: 'ECDSA', namedCurve: keyType.slice(3), hash: 'SHA-256' }
    : {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: Number(keyType.slice(4)),
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      };
  const keys = (await nodeCrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys,
    signingAlgorithm: algorithm,
  });
  return { pem: csr.toString('pem'), keys };
}

/** A profile policy for tests: TLS client authentication, common name required, e-mails optional. */
export const TEST_POLICY: ProfilePolicy = {
  subject: {
    common_name: 'required',
    organization_name: 'optional',
    organization_units: 'optional',
    street_address: 'not_allowed',
    postal_code: 'not_allowed',
    locality: 'optional',
    state: 'optional',
    country: 'optional',
    emails: 'optional',
    dns_names: 'optional',
    user_principal_names: 'optional',
  },
  validity_days: 30,
  key_usages: ['Authentication'],
  extended_key_usages: ['clientAuth'],
  key_types: { rsa: [2048, 3072, 4096], ec: ['P-256', 'P-384'] },
};

/**
 * Stores `certificate` as a CA of the platform (its key is not kept: a row for suites that sign with
 * keys of their own); answers its id.
 */
export async function insertTestCa(
  harness: TestApp,
  kind: 'root' | 'issuing',
  certificate: x509.X509Certificate,
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
      sealed_private_key: new Uint8Array(randomBytes(32)),
      certificate: new Uint8Array(certificate.rawData),
      subject: certificate.subject,
      serial_number: certificate.serialNumber.toLowerCase(),
      not_before: certificate.notBefore,
      not_after: certificate.notAfter,
      sha256_fingerprint: Buffer.from(await certificate.getThumbprint('SHA-256')).toString('hex'),
      created_at: harness.deps.now(),
    })
    .execute();
  return id;
}

/** A certificate profile of `accountId` written straight to the table (TEST_POLICY unless told). */
export async function insertTestProfile(
  harness: TestApp,
  accountId: string,
  {
    name = `Profile ${randomUUID().slice(0, 8)}`,
    policy = TEST_POLICY,
  }: { name?: string; policy?: ProfilePolicy } = {},
): Promise<{ id: string; name: string }> {
  const id = randomUUID();
  const now = harness.deps.now();
  await harness.deps.db
    .insertInto('certificate_profiles')
    .values({
      id,
      account_id: accountId,
      name,
      policy: JSON.stringify(policy),
      created_at: now,
      updated_at: now,
      created_by: null,
    })
    .execute();
  return { id, name };
}
