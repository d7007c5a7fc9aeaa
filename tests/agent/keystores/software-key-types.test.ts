import { createPublicKey, verify, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../agent/config.ts';
import { type Keystores, openKeystores } from '../../../agent/keystores/index.ts';
import { x509 } from '../../../agent/keystores/x509.ts';
import type { KeyParameters } from '../../../contract/trust-agent/entities.ts';
import { toolsAvailable } from '../../server/ca/openssl.ts';
import {
  opensslVerifiesCsr,
  publicKeyHex,
  publicKeysOpensslReads,
  refusal,
  testCertificateAuthority,
} from './helpers.ts';

const PIN = 'key-types-4711';
const keystoreId = 'software';
const openssl = toolsAvailable("the key types' openssl cross-checks", 'openssl');

/** The software keystore's key types beyond RSA 2048 (software.test.ts): ECDSA keys and RSA 3072. */
describe("the software keystore's key types", { timeout: 120_000 }, () => {
  let dataDir: string;
  let keystores: Keystores;
  let ca: Awaited<ReturnType<typeof testCertificateAuthority>>;
  const file = () => path.join(dataDir, 'keystore', 'software.p12');

  /** A new key of the software keystore, its CSR checked as the CA checks it, and OpenSSL's view of both. */
  async function generate(key: KeyParameters) {
    const { keyId, csr: csrPem } = await keystores.generate({
      keystoreId,
      pin: PIN,
      ...key,
      subject: { commonName: 'Ada Lovelace' },
    });
    const csr = new x509.Pkcs10CertificateRequest(csrPem);
    expect(await csr.verify()).toBe(true);
    expect(Buffer.from(await csr.publicKey.getKeyIdentifier()).toString('hex')).toBe(keyId);
    if (openssl) {
      expect(await opensslVerifiesCsr(dataDir, csrPem)).toBe(true);
      // The PKCS#8 key in the file, taken out with the PIN by OpenSSL, is the CSR's.
      expect(await publicKeysOpensslReads(file(), PIN)).toContain(publicKeyHex(csr));
    }
    const details = createPublicKey({
      key: Buffer.from(csr.publicKey.rawData),
      format: 'der',
      type: 'spki',
    }).asymmetricKeyDetails;
    return { csrPem, csr, details };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'agent-software-key-types-'));
    keystores = await openKeystores(loadAgentConfig({ TRUST_AGENT_DATA_DIR: dataDir }));
    await keystores.initToken({ keystoreId, label: 'Key types', pin: PIN });
    ca = await testCertificateAuthority();
  });

  afterAll(async () => {
    await keystores?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each([
    { curve: 'P-256', openSslName: 'prime256v1', csrHash: 'SHA-256', signatureBytes: 64 },
    { curve: 'P-384', openSslName: 'secp384r1', csrHash: 'SHA-384', signatureBytes: 96 },
  ] as const)(
    'makes an ECDSA $curve key whose CSR it signs with $csrHash, and signs ECDSA-SHA-256 in IEEE P1363',
    async ({ curve, openSslName, csrHash, signatureBytes }) => {
      const { csrPem, csr, details } = await generate({ algorithm: 'EC', curve });
      expect(details?.namedCurve).toBe(openSslName);
      expect(csr.signatureAlgorithm).toMatchObject({ name: 'ECDSA', hash: { name: csrHash } });

      const issued = await ca.fromCsr(csrPem);
      const { certificate } = await keystores.importCertificate({
        keystoreId,
        pin: PIN,
        certificate: issued.toString('pem'),
      });
      expect(certificate.hasPrivateKey).toBe(true);

      const data = Buffer.from(`signed with ${curve}`);
      const request = { keystoreId, pin: PIN, serial: certificate.serial, data: data.toString('base64') };
      const { signature } = await keystores.sign({ ...request, algorithm: 'ECDSA-SHA-256' });
      const bytes = Buffer.from(signature, 'base64');
      // IEEE P1363: r and s side by side, each as long as the curve's order.
      expect(bytes.length).toBe(signatureBytes);
      const publicKey = new X509Certificate(issued.toString('pem')).publicKey;
      const verifies = (signed: Buffer) =>
        verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, bytes);
      expect(verifies(data)).toBe(true);
      expect(verifies(Buffer.from('another document'))).toBe(false);

      await refusal(keystores.sign({ ...request, algorithm: 'RSASSA-PKCS1-v1_5-SHA-256' }), 'invalidKeyType');
    },
  );

  it('makes RSA 3072 keys', async () => {
    const { details } = await generate({ algorithm: 'RSA', keySize: 3072 });
    expect(details?.modulusLength).toBe(3072);
  });
});
