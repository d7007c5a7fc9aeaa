import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../agent/commands.ts';
import { loadAgentConfig } from '../../../agent/config.ts';
import type { Keystores } from '../../../agent/keystores/index.ts';
import { x509 } from '../../../agent/keystores/x509.ts';
import { CSR_PEM_LINE_LENGTH, PIN_ATTEMPT_LIMIT } from '../../../contract/trust-agent/constants.ts';
import type { Keystore } from '../../../contract/trust-agent/entities.ts';
import { tool, toolsAvailable } from '../../server/ca/openssl.ts';
import { refusal, signatureVerifies, testCertificateAuthority } from './helpers.ts';

const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const LABEL = 'agent-test';
const PIN = '246810';
const SO_PIN = '13579246';
const available = toolsAvailable('the PKCS#11 keystore tests', 'softhsm2-util', 'pkcs11-tool');

/**
 * PKCS#11 tokens through the agent, on a SoftHSM2 token of the test's own (its own SOFTHSM2_CONF and
 * token directory): keys generated on the token and never extractable, key sizes checked against the
 * token's mechanism, the token's PIN errors in the contract's codes, and the agent's attempt limit,
 * which SoftHSM2 itself does not have.
 */
describe.skipIf(!available)('PKCS#11 keystores', () => {
  let dir: string;
  let keystores: Keystores;
  let keystoreId: string;
  let serial: string;
  let keyId: string;
  let csrPem: string;
  let certificate: x509.X509Certificate;
  let ca: Awaited<ReturnType<typeof testCertificateAuthority>>;
  const env: NodeJS.ProcessEnv = {};
  const p11tool = (...args: string[]) => tool('pkcs11-tool', ['--module', MODULE, ...args], env);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agent-pkcs11-'));
    const tokens = path.join(dir, 'tokens');
    await mkdir(tokens);
    env.SOFTHSM2_CONF = path.join(dir, 'softhsm2.conf');
    await writeFile(
      env.SOFTHSM2_CONF,
      `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`,
    );
    // The module reads SOFTHSM2_CONF when it is initialised, in this process.
    process.env.SOFTHSM2_CONF = env.SOFTHSM2_CONF;
    const init = await tool(
      'softhsm2-util',
      ['--init-token', '--free', '--label', LABEL, '--so-pin', SO_PIN, '--pin', PIN],
      env,
    );
    expect(init.status, init.output).toBe(0);
    const { openKeystores } = await import('../../../agent/keystores/index.ts');
    keystores = await openKeystores(
      loadAgentConfig({
        TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
        TRUST_AGENT_PKCS11_MODULES: `softhsm=${MODULE},missing=/nowhere/libnothing.so`,
        TRUST_AGENT_SOFTWARE_KEYSTORE: 'off',
      }),
      () => undefined,
    );
    ca = await testCertificateAuthority();
  });

  afterAll(async () => {
    await keystores?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists one keystore per token, typed from its manufacturer, with the RSA sizes of its mechanism', async () => {
    expect(keystores.modules()).toEqual([
      { name: 'softhsm', available: true },
      { name: 'missing', available: false },
    ]);
    const listed = await keystores.list();
    const token = listed.find((keystore) => keystore.name === LABEL) as Keystore;
    expect(token).toMatchObject({ type: 'PKCS11', status: 'INITIALIZED', library: 'softhsm' });
    expect(token.id).toMatch(/^pkcs11:softhsm:[0-9a-f]+$/);
    expect(typeof token.slot).toBe('number');
    keystoreId = token.id;
    serial = token.id.slice('pkcs11:softhsm:'.length);
    // SoftHSM2 keeps a free slot with an uninitialised token beside every initialised one.
    expect(listed.some((keystore) => keystore.status === 'UNINITIALIZED')).toBe(true);

    const [info] = await keystores.tokens(keystoreId);
    expect(info).toEqual({
      keystoreId,
      initialized: true,
      label: LABEL,
      type: 'HWToken',
      manufacturer: 'SoftHSM project',
      model: 'SoftHSM v2',
      serial,
      mechanisms: [{ algorithm: 'RSA', minKeySize: 512, maxKeySize: 16384 }],
      pin: { initialized: true, locked: false, retriesLeft: null, finalTry: false },
    });
    await refusal(keystores.tokens('pkcs11:softhsm:0000'), 'keystoreNotFound');
    await refusal(keystores.verifyPin({ keystoreId: 'pkcs11:elsewhere:1', pin: PIN }), 'keystoreNotFound');
  });

  it("reports SoftHSM2's free slot as a token not initialized, and refuses every command on it as such", async () => {
    const blank = (await keystores.tokens()).find((token) => !token.initialized);
    // What a fresh smart card also reports: no label, no serial, no user PIN.
    expect(blank).toMatchObject({
      type: 'HWToken',
      label: '',
      serial: '',
      manufacturer: 'SoftHSM project',
      pin: { initialized: false },
    });
    const blankId = blank?.keystoreId ?? '';
    expect((await keystores.list()).find((keystore) => keystore.id === blankId)?.status).toBe(
      'UNINITIALIZED',
    );
    const generate = { keystoreId: blankId, pin: PIN, subject: { commonName: 'x' } } as const;
    const refused = await refusal(
      keystores.generate({ ...generate, algorithm: 'RSA', keySize: 2048 }),
      'tokenUninitialized',
    );
    expect(refused.message).toContain('not initialized');
    // Not a key size, not a PIN, not a removed token: the token's state, whatever is asked.
    await refusal(keystores.generate({ ...generate, algorithm: 'RSA', keySize: 256 }), 'tokenUninitialized');
    await refusal(keystores.verifyPin({ keystoreId: blankId, pin: PIN }), 'tokenUninitialized');
    await refusal(keystores.certificates({ keystoreId: blankId }), 'tokenUninitialized');
    await refusal(
      keystores.resetPin({ keystoreId: blankId, soPin: SO_PIN, newPin: PIN }),
      'tokenUninitialized',
    );
    // Refused before any PIN reached the token: the agent counted no wrong attempt.
    expect((await keystores.tokens(blankId))[0]?.pin.retriesLeft).toBeNull();
  });

  it("refuses key sizes outside the token's range and other key types before the PIN and before generating", async () => {
    const request = { keystoreId, pin: 'not-the-pin', subject: { commonName: 'x' } } as const;
    const below = await refusal(
      keystores.generate({ ...request, algorithm: 'RSA', keySize: 256 }),
      'keySizeBelowMinimum',
    );
    expect(below.details.mechanism).toEqual({ algorithm: 'RSA', minKeySize: 512, maxKeySize: 16384 });
    const above = await refusal(
      keystores.generate({ ...request, algorithm: 'RSA', keySize: 32768 }),
      'keySizeAboveMaximum',
    );
    expect(above.details.mechanism).toMatchObject({ maxKeySize: 16384 });
    // The agent makes RSA keys only on a token, though SoftHSM2 could make EC ones.
    await refusal(keystores.generate({ ...request, algorithm: 'EC', curve: 'P-256' }), 'invalidKeyType');
    const objects = await p11tool('--token-label', LABEL, '--login', '--pin', PIN, '--list-objects');
    expect(objects.output).not.toContain('Private Key Object');
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBeNull();
  });

  it('generates an RSA key on the token, sensitive and never extractable, and a CSR the token signed', async () => {
    const generated = await keystores.generate({
      keystoreId,
      pin: PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName: 'Grace Hopper' },
    });
    keyId = generated.keyId;
    csrPem = generated.csr;
    const lines = csrPem.trim().split('\n');
    expect(lines.slice(1, -2).every((line) => line.length === CSR_PEM_LINE_LENGTH)).toBe(true);
    const csr = new x509.Pkcs10CertificateRequest(csrPem);
    expect(await csr.verify()).toBe(true);
    expect(csr.subject).toBe('CN=Grace Hopper');

    const listed = await p11tool(
      '--token-label',
      LABEL,
      '--login',
      '--pin',
      PIN,
      '--list-objects',
      '--type',
      'privkey',
    );
    expect(listed.status, listed.output).toBe(0);
    expect(listed.output).toContain('label:      Grace Hopper');
    expect(listed.output).toContain(`ID:         ${keyId}`);
    const access = listed.output.split('\n').find((line) => line.trim().startsWith('Access:')) ?? '';
    expect(access).toContain('sensitive');
    expect(access).toContain('never extractable');
    expect(listed.output).toContain('Usage:      sign');

    // The CSR's public key is the token's: the public key object of the same id, read by pkcs11-tool.
    const spki = path.join(dir, 'public.der');
    const read = await p11tool(
      '--token-label',
      LABEL,
      '--read-object',
      '--type',
      'pubkey',
      '--id',
      keyId,
      '-o',
      spki,
    );
    expect(read.status, read.output).toBe(0);
    const { readFile } = await import('node:fs/promises');
    expect(Buffer.from(await readFile(spki))).toEqual(Buffer.from(csr.publicKey.rawData));
  });

  it('imports the certificate beside its key, lists, exports, signs with it; refuses one of another key', async () => {
    certificate = await ca.fromCsr(csrPem);
    const { certificate: imported } = await keystores.importCertificate({
      keystoreId,
      pin: PIN,
      certificate: certificate.toString('pem'),
    });
    expect(imported).toMatchObject({ keystoreId, subject: 'CN=Grace Hopper', hasPrivateKey: true });
    const certs = await p11tool('--token-label', LABEL, '--list-objects', '--type', 'cert');
    expect(certs.output).toContain(`ID:         ${keyId}`);

    expect((await keystores.certificates({ keystoreId })).certificates).toEqual([imported]);
    expect((await keystores.certificates({ keystoreId, pin: PIN })).certificates).toEqual([imported]);
    const der = await keystores.exportCertificate({ keystoreId, serial: imported.serial, format: 'der' });
    expect(Buffer.from(der.data, 'base64')).toEqual(Buffer.from(certificate.rawData));

    const data = new Uint8Array(Buffer.from('signed on the token'));
    const sign = () =>
      keystores.sign({
        keystoreId,
        pin: PIN,
        serial: imported.serial,
        algorithm: 'RSASSA-PKCS1-v1_5-SHA-256',
        data: Buffer.from(data).toString('base64'),
      });
    // Several at once: the module's operations run one after another on their own sessions.
    const signatures = await Promise.all([sign(), sign(), sign(), sign()]);
    for (const { signature } of signatures)
      expect(await signatureVerifies(certificate, data, signature)).toBe(true);

    const other = await ca.ofAnotherKey();
    await refusal(
      keystores.importCertificate({ keystoreId, pin: PIN, certificate: other.toString('pem') }),
      'certificateKeyMismatch',
    );
    // ECDSA is refused before the PIN is tried: a wrong one costs no attempt.
    await refusal(
      keystores.sign({
        keystoreId,
        pin: 'not-the-pin',
        serial: imported.serial,
        algorithm: 'ECDSA-SHA-256',
        data: 'AA==',
      }),
      'invalidKeyType',
    );
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBeNull();
  });

  it('answers a wrong PIN with pinIncorrect and what is left, changes the PIN, and resets it with the SO PIN', async () => {
    // As a page gets it: the command's error answer, with what is left.
    const config = loadAgentConfig({ TRUST_AGENT_DATA_DIR: path.join(dir, 'agent') });
    const info = {
      product: 'test',
      version: '1.1.4',
      protocol: 'trust-agent/1',
      os: 'linux',
      arch: 'x64',
      enabled: true,
    } as const;
    const answer = await runCommand({ config, info, startedAt: Date.now(), keystores }, 'verifypin', {
      keystoreId,
      pin: '999999',
    });
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'pinIncorrect',
        message: 'The PIN is incorrect; 4 attempts are left before the keystore locks',
        retriesLeft: PIN_ATTEMPT_LIMIT - 1,
      },
    });
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBe(PIN_ATTEMPT_LIMIT - 1);
    await keystores.changePin({ keystoreId, pin: PIN, newPin: '112233' });
    expect((await keystores.tokens(keystoreId))[0]?.pin.retriesLeft).toBeNull();
    await refusal(keystores.verifyPin({ keystoreId, pin: PIN }), 'pinIncorrect');
    await keystores.verifyPin({ keystoreId, pin: '112233' });
    await refusal(keystores.changePin({ keystoreId, pin: '112233', newPin: '12' }), 'pinInvalid');
    await refusal(keystores.resetPin({ keystoreId, soPin: '00000000', newPin: PIN }), 'pinIncorrect');
    await keystores.resetPin({ keystoreId, soPin: SO_PIN, newPin: PIN });
    await keystores.verifyPin({ keystoreId, pin: PIN });
  });

  it('locks the keystore in the agent after five wrong PINs in a row, until the SO PIN resets it', async () => {
    for (let left = PIN_ATTEMPT_LIMIT - 1; left > 0; left--) {
      const failure = await refusal(keystores.verifyPin({ keystoreId, pin: `00000${left}` }), 'pinIncorrect');
      expect(failure.details.retriesLeft).toBe(left);
    }
    await refusal(keystores.verifyPin({ keystoreId, pin: '000000' }), 'pinLocked');
    // SoftHSM2 would take the right PIN now; the agent does not.
    await refusal(keystores.verifyPin({ keystoreId, pin: PIN }), 'pinLocked');
    expect((await keystores.list()).find((keystore) => keystore.id === keystoreId)?.status).toBe('LOCKED');
    expect((await keystores.tokens(keystoreId))[0]?.pin).toMatchObject({ locked: true, retriesLeft: 0 });
    await keystores.resetPin({ keystoreId, soPin: SO_PIN, newPin: PIN });
    await keystores.verifyPin({ keystoreId, pin: PIN });
    expect((await keystores.list()).find((keystore) => keystore.id === keystoreId)?.status).toBe(
      'INITIALIZED',
    );
  });

  it('refuses what a token cannot or must not do from a web page', async () => {
    await refusal(keystores.initToken({ keystoreId, label: 'wiped', pin: PIN }), 'unsupportedCommand');
    await refusal(keystores.backup({ keystoreId, pin: PIN }), 'unsupportedCommand');
    await refusal(keystores.restore({ keystoreId, pin: PIN, pkcs12: 'AA==' }), 'unsupportedCommand');
  });

  it('deletes the certificate with its key from the token', async () => {
    const [listed] = (await keystores.certificates({ keystoreId })).certificates;
    await keystores.deleteCertificate({ keystoreId, pin: PIN, serial: listed?.serial ?? '', withKey: true });
    expect((await keystores.certificates({ keystoreId })).certificates).toEqual([]);
    const objects = await p11tool('--token-label', LABEL, '--login', '--pin', PIN, '--list-objects');
    expect(objects.output).not.toContain('Private Key Object');
    expect(objects.output).not.toContain('Public Key Object');
  });

  it('tells a token whose user PIN was never set, and a token that was removed', async () => {
    const free = (await keystores.list()).find((keystore) => keystore.status === 'UNINITIALIZED');
    const init = await p11tool(
      '--slot',
      String(free?.slot),
      '--init-token',
      '--label',
      'no-user-pin',
      '--so-pin',
      SO_PIN,
    );
    expect(init.status, init.output).toBe(0);
    await keystores.refresh();
    const fresh = (await keystores.list()).find((keystore) => keystore.name === 'no-user-pin') as Keystore;
    expect(fresh.status).toBe('UNINITIALIZED');
    expect((await keystores.tokens(fresh.id))[0]?.pin.initialized).toBe(false);
    await refusal(keystores.verifyPin({ keystoreId: fresh.id, pin: PIN }), 'pinNotInitialized');

    const removed = await tool('softhsm2-util', ['--delete-token', '--serial', serial], env);
    expect(removed.status, removed.output).toBe(0);
    await keystores.refresh();
    expect((await keystores.list()).find((keystore) => keystore.id === keystoreId)?.status).toBe('ABSENT');
    await refusal(keystores.verifyPin({ keystoreId, pin: PIN }), 'keystoreNotAvailable');
    await refusal(keystores.tokens(keystoreId), 'keystoreNotAvailable');
  });
});
