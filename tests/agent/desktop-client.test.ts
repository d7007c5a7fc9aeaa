import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.ts';
import { type DesktopClientContext, runDesktopClientCommand } from '../../agent/desktop-client/commands.ts';
import { DesktopClientProfiles } from '../../agent/desktop-client/profiles.ts';
import type { Keystores } from '../../agent/keystores/index.ts';
import { x509 } from '../../agent/keystores/x509.ts';
import type { TableOutcome } from '../../contract/trust-agent/commands.ts';
import { DESKTOP_CLIENT_PRODUCT, DESKTOP_CLIENT_VERSION } from '../../contract/trust-agent/constants.ts';
import type {
  DesktopClientCommand,
  DesktopClientCommands,
  DesktopClientRequest,
} from '../../contract/trust-agent/desktop-client.ts';
import { tool, toolsAvailable } from '../server/ca/openssl.ts';
import { testCertificateAuthority } from './keystores/helpers.ts';

const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const PIN = '246810';
const SOFTWARE_PIN = 'software-pin-4711';
const available = toolsAvailable("the desktop client's tests", 'softhsm2-util', 'pkcs11-tool');

function pkcs7Of(...certificates: x509.X509Certificate[]): string {
  return Buffer.from(new x509.X509Certificates(certificates).export('raw')).toString('base64');
}

/**
 * The desktop client's commands (decision 021 §5) on a SoftHSM2 token and the software keystore of
 * the test's own: a key and CSR made through `csr`, the issued chain installed with `pkcs7` under a
 * profile and its security policy, the profile listed, and the refusals the install page names.
 */
describe.skipIf(!available)('the desktop client', { timeout: 120_000 }, () => {
  let dir: string;
  let keystores: Keystores;
  let context: DesktopClientContext;
  let tokenId: string;
  let ca: Awaited<ReturnType<typeof testCertificateAuthority>>;
  const run = <C extends DesktopClientCommand>(command: C, request: DesktopClientRequest<C>) =>
    runDesktopClientCommand(context, command, request) as Promise<TableOutcome<DesktopClientCommands, C>>;
  const runUnchecked = (command: string, request: unknown) =>
    runDesktopClientCommand(context, command, request);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agent-desktop-client-'));
    await mkdir(path.join(dir, 'tokens'));
    const env = { SOFTHSM2_CONF: path.join(dir, 'softhsm2.conf') };
    await writeFile(
      env.SOFTHSM2_CONF,
      `directories.tokendir = ${path.join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
    );
    // The module reads SOFTHSM2_CONF when it is initialised, in this process.
    process.env.SOFTHSM2_CONF = env.SOFTHSM2_CONF;
    const init = await tool(
      'softhsm2-util',
      ['--init-token', '--free', '--label', 'device-token', '--so-pin', '13579246', '--pin', PIN],
      env,
    );
    expect(init.status, init.output).toBe(0);
    const config = loadAgentConfig({
      TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
      TRUST_AGENT_PKCS11_MODULES: `softhsm=${MODULE}`,
    });
    const { openKeystores } = await import('../../agent/keystores/index.ts');
    keystores = await openKeystores(config, () => undefined);
    const info = {
      product: DESKTOP_CLIENT_PRODUCT,
      version: DESKTOP_CLIENT_VERSION,
      protocol: 'trust-agent/1',
      os: 'linux' as const,
      arch: 'x64',
      enabled: true,
    };
    context = {
      config,
      info,
      startedAt: Date.now(),
      keystores,
      profiles: new DesktopClientProfiles(config.dataDir),
    };
    await keystores.initToken({ keystoreId: 'software', label: 'Software', pin: SOFTWARE_PIN });
    ca = await testCertificateAuthority();
  });

  afterAll(async () => {
    await keystores?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('initializes for the production environment only, with the keystores', async () => {
    expect(await runUnchecked('initialize', { environment: 'staging' })).toMatchObject({
      ok: false,
      error: { code: 'invalidRequest' },
    });
    const answer = await run('initialize', { environment: 'production' });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.result.agent.product).toBe('desktop-client');
    const token = answer.result.keystores.find((keystore) => keystore.library === 'softhsm');
    expect(token?.name).toContain('device-token');
    tokenId = token?.id ?? '';
    expect(await runUnchecked('generate', {})).toMatchObject({
      ok: false,
      error: { code: 'unsupportedCommand' },
    });
  });

  it('makes a key and CSR on the token, installs the chain under a hardware profile and lists it', async () => {
    const csr = await run('csr', {
      keystoreId: tokenId,
      pin: PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName: 'printer-7' },
    });
    if (!csr.ok) throw new Error(csr.error.message);
    const leaf = await ca.fromCsr(csr.result.csr);
    const unrelated = await ca.ofAnotherKey();
    const installed = await run('pkcs7', {
      keystoreId: tokenId,
      pin: PIN,
      pkcs7: pkcs7Of(unrelated, leaf),
      securityPolicy: 'hardware',
      profileName: 'Printers',
    });
    if (!installed.ok) throw new Error(installed.error.message);
    const serial = leaf.serialNumber.toLowerCase().replace(/^0+/, '');
    expect(installed.result.certificate).toMatchObject({ serial, hasPrivateKey: true, keystoreId: tokenId });
    const certificates = await run('certificate', { keystoreId: tokenId, pin: PIN });
    if (!certificates.ok) throw new Error(certificates.error.message);
    expect(certificates.result.certificates.map((item) => item.serial)).toContain(serial);

    const profiles = await run('profile', {});
    if (!profiles.ok) throw new Error(profiles.error.message);
    expect(profiles.result.profiles).toEqual([
      expect.objectContaining({ name: 'Printers', securityPolicy: 'hardware', keystoreId: tokenId, serial }),
    ]);
    // The profiles file is the agent's own, readable by its owner only.
    const file = path.join(dir, 'agent', 'desktop-client-profiles.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(1);
  });

  it('names the serial number and the keystore when the keystore holds no key for the chain', async () => {
    const stranger = await ca.ofAnotherKey();
    const answer = await run('pkcs7', {
      keystoreId: tokenId,
      pin: PIN,
      pkcs7: pkcs7Of(stranger),
      securityPolicy: 'hardware',
      profileName: 'Printers',
    });
    const serial = stranger.serialNumber.toLowerCase().replace(/^0+/, '');
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'noCertificateWithSerialNumber',
        serial,
        keystoreName: expect.stringContaining('device-token'),
      },
    });
  });

  it('keeps a hardware profile out of the software keystore, and takes a software profile there', async () => {
    const csr = await run('csr', {
      keystoreId: 'software',
      pin: SOFTWARE_PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName: 'kiosk-2' },
    });
    if (!csr.ok) throw new Error(csr.error.message);
    const pkcs7 = pkcs7Of(await ca.fromCsr(csr.result.csr));
    const request = { keystoreId: 'software', pin: SOFTWARE_PIN, pkcs7, profileName: 'Kiosks' };
    expect(await run('pkcs7', { ...request, securityPolicy: 'hardware' })).toMatchObject({
      ok: false,
      error: { code: 'securityPolicyNotMet' },
    });
    expect(await run('pkcs7', { ...request, securityPolicy: 'software' })).toMatchObject({
      ok: true,
      result: { profile: { name: 'Kiosks', securityPolicy: 'software', keystoreId: 'software' } },
    });
  });

  it('refuses data that is not a PKCS#7 chain and a wrong PIN', async () => {
    const leaf = await ca.ofAnotherKey();
    expect(
      await run('pkcs7', {
        keystoreId: tokenId,
        pin: PIN,
        pkcs7: Buffer.from(leaf.rawData).toString('base64'),
        securityPolicy: 'hardware',
        profileName: 'Printers',
      }),
    ).toMatchObject({ ok: false, error: { code: 'certificateInvalid' } });
    expect(
      await run('pkcs7', {
        keystoreId: tokenId,
        pin: '000000',
        pkcs7: pkcs7Of(leaf),
        securityPolicy: 'hardware',
        profileName: 'Printers',
      }),
    ).toMatchObject({ ok: false, error: { code: 'pinIncorrect' } });
  });
});
