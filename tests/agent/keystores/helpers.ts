import { createPublicKey } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { CommandFailure } from '../../../agent/failure.ts';
import { nodeCrypto, RSA_SHA256, type WebCryptoKeyPair, x509 } from '../../../agent/keystores/x509.ts';
import type { CommandErrorCode } from '../../../contract/trust-agent/errors.ts';
import { tool } from '../../server/ca/openssl.ts';

/** Resolves with the refusal a keystore call ends in, failing the test when it succeeds. */
export async function refusal(call: Promise<unknown>, code: CommandErrorCode): Promise<CommandFailure> {
  const failure = await call.then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(CommandFailure);
  expect((failure as CommandFailure).code, (failure as Error).message).toBe(code);
  return failure as CommandFailure;
}

const rsa = { ...RSA_SHA256, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };

/** A test CA: issues end-entity certificates for CSRs, as the platform would after enrollment. */
export async function testCertificateAuthority() {
  const keys = (await nodeCrypto.subtle.generateKey(rsa, false, ['sign', 'verify'])) as WebCryptoKeyPair;
  const name = 'CN=Agent test CA';
  let serial = 0x1f00;
  const issue = async (publicKey: x509.PublicKey, subject: string) =>
    x509.X509CertificateGenerator.create({
      serialNumber: (serial++).toString(16),
      subject,
      issuer: name,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 365 * 86_400_000),
      signingAlgorithm: RSA_SHA256,
      publicKey,
      signingKey: keys.privateKey,
    });
  return {
    /** The certificate for a CSR's public key and subject. */
    fromCsr: async (csrPem: string) => {
      const csr = new x509.Pkcs10CertificateRequest(csrPem);
      return issue(csr.publicKey, csr.subject);
    },
    /** A certificate of a key no keystore holds. */
    ofAnotherKey: async () => {
      const other = (await nodeCrypto.subtle.generateKey(rsa, true, ['sign', 'verify'])) as WebCryptoKeyPair;
      return issue(await x509.PublicKey.create(other.publicKey, nodeCrypto), 'CN=someone else');
    },
  };
}

/** Checks a PKCS#1 v1.5 SHA-256 signature with a certificate's public key. */
export async function signatureVerifies(
  certificate: x509.X509Certificate,
  data: Uint8Array<ArrayBuffer>,
  signature: string,
) {
  const publicKey = await certificate.publicKey.export(RSA_SHA256, ['verify'], nodeCrypto);
  return nodeCrypto.subtle.verify(
    RSA_SHA256,
    publicKey,
    new Uint8Array(Buffer.from(signature, 'base64')),
    data,
  );
}

/** Whether OpenSSL verifies a CSR's self-signature (written to a file of `dir` for it). */
export async function opensslVerifiesCsr(dir: string, csrPem: string): Promise<boolean> {
  const request = path.join(dir, 'request.pem');
  await writeFile(request, csrPem);
  const verified = await tool('openssl', ['req', '-in', request, '-verify', '-noout']);
  return verified.status === 0 && /verify OK/.test(verified.output);
}

/**
 * The public keys (SPKI DER in hex) of the private keys OpenSSL takes out of a PKCS#12 file with
 * the PIN: what a backup of the keystore is worth outside the agent.
 */
export async function publicKeysOpensslReads(file: string, pin: string): Promise<string[]> {
  const keys = await tool('openssl', ['pkcs12', '-in', file, '-passin', `pass:${pin}`, '-nocerts', '-nodes']);
  const blocks = keys.output.match(/-----BEGIN PRIVATE KEY-----[^-]+-----END PRIVATE KEY-----/g) ?? [];
  return blocks.map((block) =>
    createPublicKey(block).export({ type: 'spki', format: 'der' }).toString('hex'),
  );
}

/** A CSR's public key as `publicKeysOpensslReads` lists it. */
export function publicKeyHex(csr: x509.Pkcs10CertificateRequest): string {
  return Buffer.from(csr.publicKey.rawData).toString('hex');
}
