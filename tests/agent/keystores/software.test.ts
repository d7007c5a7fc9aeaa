import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../agent/config.ts';
import { writePrivateFile } from '../../../agent/files.ts';
import { type Keystores, openKeystores } from '../../../agent/keystores/index.ts';
import { x509 } from '../../../agent/keystores/x509.ts';
import { CSR_PEM_LINE_LENGTH, PIN_ATTEMPT_LIMIT } from '../../../contract/trust-agent/constants.ts';
import { tool, toolsAvailable } from '../../server/ca/openssl.ts';
import {
  opensslVerifiesCsr,
  publicKeyHex,
  publicKeysOpensslReads,
  refusal,
  signatureVerifies,
  testCertificateAuthority,
} from './helpers.ts';

const PIN = 'first-pin-4711';
const NEW_PIN = 'second-pin-0815';
const keystoreId = 'software';
const openssl = toolsAvailable("the software keystore's openssl cross-checks", 'openssl');

/**
 * The software keystore end to end, on a data directory of its own: a PIN-protected PKCS#12 file
 * that OpenSSL reads, keys that sign what their certificates verify, the agent's PIN attempt limit,
 * and writes that never leave half a file. Every PIN check costs a 600,000-iteration MAC (about a
 * second), hence the generous timeout.
 */
describe('the software keystore', { timeout: 120_000 }, () => {
  let dataDir: string;
  let keystores: Keystores;
  let ca: Awaited<ReturnType<typeof testCertificateAuthority>>;
  let csrPem: string;
  let keyId: string;
  let certificate: x509.X509Certificate;
  const file = () => path.join(dataDir, 'keystore', 'software.p12');
  const reopen = async () => {
    await keystores.close();
    keystores = await openKeystores(loadAgentConfig({ TRUST_AGENT_DATA_DIR: dataDir }));
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'agent-software-keystore-'));
    keystores = await openKeystores(loadAgentConfig({ TRUST_AGENT_DATA_DIR: dataDir }));
    ca = await testCertificateAuthority();
  });

  afterAll(async () => {
    await keystores?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is listed uninitialized and refuses key operations until it is created', async () => {
    expect(await keystores.list()).toEqual([
      {
        id: keystoreId,
        name: 'Software keystore',
        type: 'PFX',
        status: 'UNINITIALIZED',
        slot: null,
        library: null,
      },
    ]);
    expect((await keystores.tokens(keystoreId))[0]).toMatchObject({
      initialized: false,
      pin: { initialized: false },
    });
    await refusal(keystores.verifyPin({ keystoreId, pin: PIN }), 'keystoreUninitialized');
    await refusal(keystores.certificates({ keystoreId }), 'keystoreUninitialized');
    await refusal(keystores.verifyPin({ keystoreId: 'pkcs11:none:1', pin: PIN }), 'keystoreNotFound');
  });

  it('is created with a label and a PIN, owner-only, and never created again over its keys', async () => {
    const { keystore } = await keystores.initToken({ keystoreId, label: 'My keys', pin: PIN });
    expect(keystore).toMatchObject({ id: keystoreId, name: 'My keys', status: 'INITIALIZED' });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await keystores.verifyPin({ keystoreId, pin: PIN })).toEqual({ verified: true });
    await refusal(keystores.initToken({ keystoreId, label: 'Again', pin: PIN }), 'unsupportedCommand');
    const [token] = await keystores.tokens(keystoreId);
    expect(token).toMatchObject({
      initialized: true,
      label: 'My keys',
      type: 'SWToken',
      mechanisms: [
        { algorithm: 'RSA', minKeySize: 2048, maxKeySize: 4096 },
        { algorithm: 'EC', curves: ['P-256', 'P-384'] },
      ],
      pin: { initialized: true, locked: false, retriesLeft: PIN_ATTEMPT_LIMIT, finalTry: false },
    });
  });

  it('refuses key sizes outside its range and curves it does not make before asking for the PIN', async () => {
    const request = { keystoreId, pin: 'not-the-pin', subject: { commonName: 'x' } } as const;
    const below = await refusal(
      keystores.generate({ ...request, algorithm: 'RSA', keySize: 1024 }),
      'keySizeBelowMinimum',
    );
    expect(below.details.mechanism).toEqual({ algorithm: 'RSA', minKeySize: 2048, maxKeySize: 4096 });
    await refusal(keystores.generate({ ...request, algorithm: 'RSA', keySize: 8192 }), 'keySizeAboveMaximum');
    // A curve outside the contract, as a caller that skipped the request schema would send it.
    await refusal(
      keystores.generate({ ...request, algorithm: 'EC', curve: 'P-521' as 'P-256' }),
      'invalidKeyType',
    );
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBe(PIN_ATTEMPT_LIMIT);
  });

  it('generates an RSA key and a CSR signed by it, wrapped at 64 characters, whose public key is the stored one', async () => {
    const generated = await keystores.generate({
      keystoreId,
      pin: PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName: 'Ada Lovelace, Analyst' },
    });
    keyId = generated.keyId;
    csrPem = generated.csr;
    const lines = csrPem.trim().split('\n');
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE REQUEST-----');
    expect(lines.slice(1, -2).every((line) => line.length === CSR_PEM_LINE_LENGTH)).toBe(true);
    const csr = new x509.Pkcs10CertificateRequest(csrPem);
    expect(await csr.verify()).toBe(true);
    expect(csr.subjectName.getField('CN')).toEqual(['Ada Lovelace, Analyst']);
    expect(Buffer.from(await csr.publicKey.getKeyIdentifier()).toString('hex')).toBe(keyId);
    if (openssl) {
      expect(await opensslVerifiesCsr(dataDir, csrPem)).toBe(true);
      // The key in the file, taken out with the PIN by OpenSSL, has the CSR's public key.
      expect(await publicKeysOpensslReads(file(), PIN)).toEqual([publicKeyHex(csr)]);
    }
  });

  it('keeps the certificate next to its key, lists and exports it, and refuses one of another key', async () => {
    certificate = await ca.fromCsr(csrPem);
    const { certificate: imported } = await keystores.importCertificate({
      keystoreId,
      pin: PIN,
      certificate: certificate.toString('pem'),
    });
    expect(imported).toMatchObject({
      keystoreId,
      serial: '1f00',
      subject: 'CN=Ada Lovelace\\, Analyst',
      hasPrivateKey: true,
    });
    expect((await keystores.certificates({ keystoreId })).certificates).toEqual([imported]);
    const exportedPem = await keystores.exportCertificate({ keystoreId, serial: '1f00', format: 'pem' });
    expect(new x509.X509Certificate(exportedPem.data).equal(certificate)).toBe(true);
    const exportedDer = await keystores.exportCertificate({ keystoreId, serial: '1f00', format: 'der' });
    expect(Buffer.from(exportedDer.data, 'base64')).toEqual(Buffer.from(certificate.rawData));
    const other = await ca.ofAnotherKey();
    await refusal(
      keystores.importCertificate({ keystoreId, pin: PIN, certificate: other.toString('pem') }),
      'certificateKeyMismatch',
    );
    await refusal(
      keystores.importCertificate({ keystoreId, pin: PIN, certificate: 'not a certificate' }),
      'certificateInvalid',
    );
    await refusal(
      keystores.exportCertificate({ keystoreId, serial: 'abc', format: 'pem' }),
      'certificateNotFound',
    );
  });

  it('signs with RSASSA-PKCS1-v1_5 SHA-256 what the certificate verifies', async () => {
    const data = new Uint8Array(Buffer.from('the document to sign'));
    const { signature } = await keystores.sign({
      keystoreId,
      pin: PIN,
      serial: '1f00',
      algorithm: 'RSASSA-PKCS1-v1_5-SHA-256',
      data: Buffer.from(data).toString('base64'),
    });
    expect(await signatureVerifies(certificate, data, signature)).toBe(true);
    expect(
      await signatureVerifies(certificate, new Uint8Array(Buffer.from('another document')), signature),
    ).toBe(false);
  });

  it('changes the PIN by encrypting the keys again: the old PIN opens nothing, the keys still sign', async () => {
    expect(await keystores.changePin({ keystoreId, pin: PIN, newPin: NEW_PIN })).toEqual({ changed: true });
    await refusal(keystores.verifyPin({ keystoreId, pin: PIN }), 'pinIncorrect');
    await keystores.verifyPin({ keystoreId, pin: NEW_PIN });
    if (openssl) {
      expect(
        (await tool('openssl', ['pkcs12', '-in', file(), '-passin', `pass:${PIN}`, '-noout'])).status,
      ).not.toBe(0);
      expect(
        (await tool('openssl', ['pkcs12', '-in', file(), '-passin', `pass:${NEW_PIN}`, '-noout'])).status,
      ).toBe(0);
    }
    const data = Buffer.from('after the change').toString('base64');
    const { signature } = await keystores.sign({
      keystoreId,
      pin: NEW_PIN,
      serial: '1f00',
      algorithm: 'RSASSA-PKCS1-v1_5-SHA-256',
      data,
    });
    expect(await signatureVerifies(certificate, new Uint8Array(Buffer.from(data, 'base64')), signature)).toBe(
      true,
    );
    await refusal(keystores.resetPin({ keystoreId, soPin: NEW_PIN, newPin: PIN }), 'unsupportedCommand');
  });

  it('backs up the encrypted PKCS#12 (PBES2, AES-256-CBC, SHA-256 MAC) and restores it', async () => {
    const { pkcs12 } = await keystores.backup({ keystoreId, pin: NEW_PIN });
    expect(Buffer.from(pkcs12, 'base64')).toEqual(await readFile(file()));
    if (openssl) {
      const info = await tool('openssl', [
        'pkcs12',
        '-in',
        file(),
        '-passin',
        `pass:${NEW_PIN}`,
        '-info',
        '-noout',
      ]);
      expect(info.output).toContain('MAC: sha256');
      expect(info.output).toContain(
        'Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 600000, PRF hmacWithSHA256',
      );
    }
    await keystores.deleteCertificate({ keystoreId, pin: NEW_PIN, serial: '1f00', withKey: true });
    expect((await keystores.certificates({ keystoreId })).certificates).toEqual([]);
    await refusal(keystores.restore({ keystoreId, pin: PIN, pkcs12 }), 'pinIncorrect');
    const { keystore } = await keystores.restore({ keystoreId, pin: NEW_PIN, pkcs12 });
    expect(keystore).toMatchObject({ name: 'My keys', status: 'INITIALIZED' });
    const [restored] = (await keystores.certificates({ keystoreId })).certificates;
    expect(restored).toMatchObject({ serial: '1f00', hasPrivateKey: true });
  });

  it('counts wrong PINs down, forgets them after a right one, and locks at five, across restarts', async () => {
    const first = await refusal(keystores.verifyPin({ keystoreId, pin: 'wrong-pin' }), 'pinIncorrect');
    expect(first.details.retriesLeft).toBe(PIN_ATTEMPT_LIMIT - 1);
    expect(first.message).not.toContain('wrong-pin');
    await keystores.verifyPin({ keystoreId, pin: NEW_PIN });
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBe(PIN_ATTEMPT_LIMIT);

    for (let left = PIN_ATTEMPT_LIMIT - 1; left > 0; left--) {
      const failure = await refusal(
        keystores.verifyPin({ keystoreId, pin: `wrong-${left}` }),
        'pinIncorrect',
      );
      expect(failure.details.retriesLeft).toBe(left);
    }
    await refusal(keystores.verifyPin({ keystoreId, pin: 'wrong-last' }), 'pinLocked');
    await refusal(keystores.verifyPin({ keystoreId, pin: NEW_PIN }), 'pinLocked');
    await reopen();
    expect((await keystores.list())[0]?.status).toBe('LOCKED');
    expect((await keystores.tokens(keystoreId))[0]?.pin).toMatchObject({ locked: true, retriesLeft: 0 });
    await refusal(
      keystores.sign({
        keystoreId,
        pin: NEW_PIN,
        serial: '1f00',
        algorithm: 'RSASSA-PKCS1-v1_5-SHA-256',
        data: 'AA==',
      }),
      'pinLocked',
    );
  });

  it('never leaves half a keystore file: readers see the old bytes or the new, a killed writer leaves the old', async () => {
    const target = path.join(dataDir, 'keystore', 'atomic.bin');
    const old = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const next = Buffer.alloc(8 * 1024 * 1024, 0x62);
    await writePrivateFile(target, old);
    let writing = true;
    const writes = (async () => {
      for (let round = 0; round < 6; round++) await writePrivateFile(target, round % 2 === 0 ? next : old);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const seen = await readFile(target);
      expect(seen.length).toBe(old.length);
      expect(seen.equals(old) || seen.equals(next)).toBe(true);
      reads++;
    }
    await writes;
    expect(reads).toBeGreaterThan(0);

    // A writer killed in the middle of writing 256 MB: the file is the whole old content or the whole new.
    const huge = 256 * 1024 * 1024;
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${path.resolve('agent/files.ts')}').then(async ({ writePrivateFile }) => {
          for (;;) await writePrivateFile(${JSON.stringify(target)}, Buffer.alloc(${huge}, 1));
        })`,
      ],
      { stdio: 'ignore' },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer.once('exit', resolve));
    const after = await readFile(target);
    const whole = after.equals(old) || (after.length === huge && after.every((byte) => byte === 1));
    expect(whole).toBe(true);

    // What a crashed keystore write left beside the file is never read, and is cleared at the next start.
    const listed = await keystores.certificates({ keystoreId });
    await writeFile(`${file()}.0123456789ab.tmp`, (await readFile(file())).subarray(0, 100));
    await reopen();
    expect(await keystores.certificates({ keystoreId })).toEqual(listed);
    expect((await readdir(path.dirname(file()))).filter((name) => name.startsWith('software.p12.'))).toEqual(
      [],
    );
  });
});
