// @vitest-environment node
import 'reflect-metadata';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildPkcs12,
  generateKeyAndCsr,
} from '../../../../src/components/client-certificate/key-material.ts';

/**
 * The browser's key material, run in Node (the same WebCrypto): the CSR carries the key, and the
 * PKCS#12 file opens with OpenSSL and the password, with the protections decision 019 names.
 */

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const directory = mkdtempSync(path.join(tmpdir(), 'client-auth-p12-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function issue(csrPem: string) {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  expect(await csr.verify()).toBe(true);
  const caKeys = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Test CA',
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: EC,
    keys: caKeys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=jane.doe',
    issuer: ca.subject,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: EC,
    publicKey: await csr.publicKey.export(),
    signingKey: caKeys.privateKey,
  });
  return { certificate: leaf.toString('pem'), chain: [ca.toString('pem')] };
}

function openssl(args: string[]) {
  return spawnSync('openssl', args, { encoding: 'utf8' });
}

describe('generateKeyAndCsr and buildPkcs12', () => {
  it('makes a PKCS#12 file OpenSSL opens with the password: PBES2 AES-256-CBC key bag, HMAC-SHA256 MAC, the matching key', async () => {
    const { keys, csr } = await generateKeyAndCsr('ECDSA-P256', 'jane.doe');
    expect(csr).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    const issued = await issue(csr);
    const password = 'correct horse battery';
    const p12 = await buildPkcs12({
      privateKey: keys.privateKey,
      certificate: issued.certificate,
      chain: issued.chain,
      password,
      friendlyName: 'jane.doe',
    });
    const file = path.join(directory, 'client.p12');
    writeFileSync(file, p12);

    const info = openssl(['pkcs12', '-info', '-nokeys', '-in', file, '-passin', `pass:${password}`]);
    expect(info.status, info.stderr).toBe(0);
    const described = `${info.stdout}\n${info.stderr}`;
    expect(described).toMatch(/MAC: sha256/);
    expect(described).toMatch(
      /Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 600000, PRF hmacWithSHA256/,
    );
    expect(described).toContain('subject=CN = jane.doe');
    expect(described).toContain('subject=CN = Test CA');

    // The key inside is the key of the certificate.
    const keyPem = execFileSync(
      'openssl',
      ['pkcs12', '-in', file, '-nocerts', '-nodes', '-passin', `pass:${password}`],
      {
        encoding: 'utf8',
      },
    );
    const certificateFile = path.join(directory, 'leaf.pem');
    writeFileSync(certificateFile, issued.certificate);
    const keyFile = path.join(directory, 'key.pem');
    writeFileSync(keyFile, keyPem);
    const fromKey = execFileSync('openssl', ['pkey', '-in', keyFile, '-pubout'], { encoding: 'utf8' });
    const fromCertificate = execFileSync('openssl', ['x509', '-in', certificateFile, '-noout', '-pubkey'], {
      encoding: 'utf8',
    });
    expect(fromKey).toBe(fromCertificate);

    const wrong = openssl(['pkcs12', '-info', '-nokeys', '-in', file, '-passin', 'pass:not the password']);
    expect(wrong.status).not.toBe(0);
  }, 60_000);

  it('makes an RSA 2048 key whose CSR OpenSSL verifies', async () => {
    const { csr } = await generateKeyAndCsr('RSA-2048', 'jane.doe');
    const file = path.join(directory, 'rsa.csr');
    writeFileSync(file, csr);
    const verified = openssl(['req', '-in', file, '-verify', '-noout', '-text']);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('Public-Key: (2048 bit)');
  }, 60_000);
});
