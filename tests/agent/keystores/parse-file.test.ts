import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../agent/commands.ts';
import { loadAgentConfig } from '../../../agent/config.ts';
import { type Keystores, openKeystores } from '../../../agent/keystores/index.ts';
import { pem, type x509 } from '../../../agent/keystores/x509.ts';
import { tool, toolsAvailable } from '../../server/ca/openssl.ts';
import { testCertificateAuthority } from './helpers.ts';

/** `parseFile`: the certificates of a file the user picked, whatever its encoding. */
describe('parseFile', () => {
  let dir: string;
  let keystores: Keystores;
  let first: x509.X509Certificate;
  let second: x509.X509Certificate;
  const parse = async (bytes: Uint8Array | string) => {
    const config = loadAgentConfig({ TRUST_AGENT_DATA_DIR: dir, TRUST_AGENT_SOFTWARE_KEYSTORE: 'off' });
    const info = {
      product: 'test',
      version: '1.1.4',
      protocol: 'trust-agent/1',
      os: 'linux',
      arch: 'x64',
      enabled: true,
    } as const;
    return runCommand({ config, info, startedAt: Date.now(), keystores }, 'parseFile', {
      data: Buffer.from(bytes).toString('base64'),
    });
  };
  const serialsOf = (outcome: Awaited<ReturnType<typeof parse>>) =>
    outcome.ok
      ? (outcome.result as { certificates: { serial: string }[] }).certificates.map((item) => item.serial)
      : outcome.error.code;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'agent-parse-file-'));
    keystores = await openKeystores(
      loadAgentConfig({ TRUST_AGENT_DATA_DIR: dir, TRUST_AGENT_SOFTWARE_KEYSTORE: 'off' }),
    );
    const ca = await testCertificateAuthority();
    first = await ca.ofAnotherKey();
    second = await ca.ofAnotherKey();
  });

  afterAll(async () => {
    await keystores?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a PEM certificate into the contract shape, with the PEM wrapped at 64 characters', async () => {
    const outcome = await parse(first.toString('pem'));
    expect(outcome).toEqual({
      ok: true,
      result: {
        certificates: [
          {
            serial: first.serialNumber.replace(/^0+/, ''),
            subject: 'CN=someone else',
            issuer: 'CN=Agent test CA',
            validity: { notBefore: first.notBefore.toISOString(), notAfter: first.notAfter.toISOString() },
            pem: pem('CERTIFICATE', first.rawData),
          },
        ],
      },
    });
  });

  it('reads DER and several PEM blocks', async () => {
    expect(serialsOf(await parse(new Uint8Array(first.rawData)))).toEqual([
      first.serialNumber.replace(/^0+/, ''),
    ]);
    expect(serialsOf(await parse(`${first.toString('pem')}\n${second.toString('pem')}`))).toHaveLength(2);
  });

  it.skipIf(!toolsAvailable('the PKCS#7 bundle test', 'openssl'))(
    'reads a PKCS#7 certs-only bundle in PEM and DER',
    async () => {
      const certs = path.join(dir, 'certs.pem');
      await writeFile(certs, `${first.toString('pem')}\n${second.toString('pem')}`);
      for (const format of ['PEM', 'DER']) {
        const out = path.join(dir, `bundle.${format}`);
        const made = await tool('openssl', [
          'crl2pkcs7',
          '-nocrl',
          '-certfile',
          certs,
          '-outform',
          format,
          '-out',
          out,
        ]);
        expect(made.status, made.output).toBe(0);
        expect(serialsOf(await parse(new Uint8Array(await readFile(out))))).toEqual(
          [first, second].map((item) => item.serialNumber.replace(/^0+/, '')),
        );
      }
    },
  );

  it('answers certificateInvalid for a file without a certificate', async () => {
    expect(serialsOf(await parse('just some text'))).toBe('certificateInvalid');
    expect(serialsOf(await parse('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'))).toBe(
      'certificateInvalid',
    );
    expect(serialsOf(await parse(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x05])))).toBe('certificateInvalid');
  });
});
