import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../../server/audit/change.ts';
import {
  ensureCertificateAuthorities,
  type WorkingCertificateAuthorities,
} from '../../../server/ca/bootstrap.ts';
import { closeCaKeyStores } from '../../../server/ca/custody.ts';
import { crlPem } from '../../../server/ca/export.ts';
import { issueCertificate } from '../../../server/ca/issue.ts';
import { revokeCertificate } from '../../../server/ca/revoke.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { createCsr, TEST_POLICY } from './helpers.ts';
import { scratchFiles, tool, toolsAvailable } from './openssl.ts';

const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOKEN = 'trust-console-test';
const USER_PIN = '836291';
const available = toolsAvailable('the PKCS#11 custody tests', 'softhsm2-util', 'pkcs11-tool');

/**
 * The CA keys on a PKCS#11 token: a SoftHSM2 token of its own per run (its own SOFTHSM2_CONF and
 * token directory), keys generated there, never extractable, and every signature made by the token.
 */
describe.skipIf(!available)('CA keys on a PKCS#11 token', () => {
  let files: Awaited<ReturnType<typeof scratchFiles>>;
  let harness: TestApp;
  let cas: WorkingCertificateAuthorities;
  let actor: AuditActor;
  const env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    files = await scratchFiles();
    const tokens = path.join(files.dir, 'tokens');
    await mkdir(tokens, { recursive: true });
    env.SOFTHSM2_CONF = await files.write(
      'softhsm2.conf',
      `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`,
    );
    // The module reads SOFTHSM2_CONF when it is initialised, in this process.
    process.env.SOFTHSM2_CONF = env.SOFTHSM2_CONF;
    const init = await tool(
      'softhsm2-util',
      ['--init-token', '--free', '--label', TOKEN, '--so-pin', '1234567', '--pin', USER_PIN],
      env,
    );
    expect(init.status, init.output).toBe(0);
    const pinFile = await files.write('pin', `${USER_PIN}\n`);
    harness = await createTestApp({
      config: { caCustody: { kind: 'pkcs11', module: MODULE, tokenLabel: TOKEN, pinFile } },
    });
    const admin = await harness.createUser();
    actor = { id: admin.id, name: admin.userName, address: null };
    cas = await ensureCertificateAuthorities(harness.deps);
  });

  afterAll(async () => {
    await closeCaKeyStores();
    await harness?.close();
    await files?.cleanup();
  });

  it('creates the CAs with labelled, sensitive, non-extractable keys on the token and nothing sealed', async () => {
    for (const ca of [cas.root, cas.issuing]) {
      expect(ca.key_custody).toBe('pkcs11');
      expect(ca.sealed_private_key).toBeNull();
      expect(ca.key_label).toBe(`trust-console-ca-${ca.id}`);
    }
    const listed = await tool(
      'pkcs11-tool',
      [
        '--module',
        MODULE,
        '--token-label',
        TOKEN,
        '--login',
        '--pin',
        USER_PIN,
        '--list-objects',
        '--type',
        'privkey',
      ],
      env,
    );
    expect(listed.status, listed.output).toBe(0);
    for (const ca of [cas.root, cas.issuing]) expect(listed.output).toContain(`label:      ${ca.key_label}`);
    const accesses = listed.output.split('\n').filter((line) => line.trim().startsWith('Access:'));
    expect(accesses).toHaveLength(2);
    for (const access of accesses) {
      expect(access).toContain('sensitive');
      expect(access).toContain('never extractable');
    }
  });

  it('signs one operation at a time on the shared session, however many are asked for at once', async () => {
    const { caKeyStore } = await import('../../../server/ca/custody.ts');
    const signer = await caKeyStore(harness.deps.config.caCustody).signer(cas.issuing);
    const data = new TextEncoder().encode('to be signed');
    const signatures = await Promise.all(
      Array.from({ length: 8 }, () =>
        signer.crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer.privateKey, data),
      ),
    );
    expect(signatures.every((signature) => signature.byteLength === 64)).toBe(true);
  });

  it('issues and revokes with the token signing certificates and CRLs, as openssl verifies', async () => {
    const { pem } = await createCsr('EC P-256');
    const issued = await harness.deps.db.transaction().execute((trx) =>
      issueCertificate(harness.deps, trx, actor, {
        csr: pem,
        policy: TEST_POLICY,
        subject: { common_name: 'token-signed' },
        accountId: null,
        profile: null,
        source: 'client_auth',
        ownerUserId: null,
      }),
    );
    const root = await files.write('root.pem', issued.chain[1] ?? '');
    const issuing = await files.write('issuing.pem', issued.chain[0] ?? '');
    const leaf = await files.write('leaf.pem', issued.pem);
    const crls = async () => {
      const rows = await harness.deps.db.selectFrom('certificate_authorities').select('crl').execute();
      return files.write(
        `crls-${Date.now()}.pem`,
        rows.map((row) => crlPem(row.crl ?? new Uint8Array())).join(''),
      );
    };
    const verify = async () =>
      tool('openssl', [
        'verify',
        '-CAfile',
        root,
        '-untrusted',
        issuing,
        '-crl_check_all',
        '-CRLfile',
        await crls(),
        leaf,
      ]);
    expect((await verify()).status).toBe(0);
    await harness.deps.db.transaction().execute((trx) =>
      revokeCertificate(harness.deps, trx, actor, {
        certificateId: issued.row.id,
        reason: 'cessationOfOperation',
      }),
    );
    const refused = await verify();
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('certificate revoked');
  });
});
