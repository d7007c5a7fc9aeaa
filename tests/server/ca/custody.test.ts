import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureCertificateAuthorities } from '../../../server/ca/bootstrap.ts';
import { caKeyStore, parseKeyEncryptionKey } from '../../../server/ca/custody.ts';
import { unsealPrivateKey } from '../../../server/ca/seal.ts';
import { loadConfig } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

describe('the key-encryption key of a fresh installation', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp();
  });

  afterAll(() => harness.close());

  it('is created in the data directory with mode 0600, said in one line that never shows it', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      const cas = await ensureCertificateAuthorities(harness.deps);
      const keyFile = path.join(harness.dataDir, 'ca-key-encryption.key');
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      const lines = info.mock.calls.map((call) => String(call[0]));
      const created = lines.filter((line) => line.includes('key-encryption key'));
      expect(created).toHaveLength(1);
      expect(created[0]).toContain(keyFile);
      expect(created[0]).toContain('unfit for production');
      const secret = (await readFile(keyFile, 'utf8')).trim();
      expect(lines.join('\n')).not.toContain(secret);

      // Its sealed keys: no PKCS#8 in clear anywhere in the table as a dump prints it.
      const kek = parseKeyEncryptionKey(await readFile(keyFile), keyFile);
      const { rows } = await sql<{
        row: string;
      }>`select t::text as row from certificate_authorities t`.execute(harness.deps.db);
      const dump = rows.map((row) => row.row).join('\n');
      for (const ca of [cas.root, cas.issuing]) {
        const sealed = ca.sealed_private_key ?? new Uint8Array();
        const pkcs8 = Buffer.from(unsealPrivateKey(kek, ca.id, sealed));
        // PKCS#8 of an EC key: SEQUENCE, version 0, then the id-ecPublicKey algorithm.
        expect(pkcs8.subarray(0, 24).toString('hex')).toMatch(/^30.{2,4}020100301306072a8648ce3d0201/);
        expect(dump).not.toContain(pkcs8.toString('hex'));
        // Its first 68 octets hold the private scalar (the tail is the public key, in the certificate too).
        expect(dump).not.toContain(pkcs8.subarray(0, 68).toString('hex'));
        expect(dump).not.toMatch(/020100301306072a8648ce3d0201/);
        // Another key, or another CA's id as associated data, does not open it.
        expect(() => unsealPrivateKey(randomBytes(32), ca.id, sealed)).toThrow(/does not unseal/);
        const otherId = ca.id === cas.root.id ? cas.issuing.id : cas.root.id;
        expect(() => unsealPrivateKey(kek, otherId, sealed)).toThrow(/does not unseal/);
      }
    } finally {
      info.mockRestore();
    }
  });

  it('signs nothing under a wrong key-encryption key', async () => {
    const cas = await ensureCertificateAuthorities(harness.deps);
    const wrongFile = path.join(harness.dataDir, 'wrong.key');
    await writeFile(wrongFile, randomBytes(32).toString('base64'));
    const store = caKeyStore({ kind: 'encrypted', keyFile: wrongFile, generated: false });
    await expect(store.signer(cas.issuing)).rejects.toThrow(
      /does not unseal under CA_KEY_ENCRYPTION_KEY_FILE/,
    );
  });
});

describe('creating the CAs', () => {
  it('makes one root and one issuing CA when several starts race, each with its audit event', async () => {
    const harness = await createTestApp();
    try {
      await writeFile(path.join(harness.dataDir, 'ca-key-encryption.key'), randomBytes(32), { mode: 0o600 });
      const results = await Promise.all(
        Array.from({ length: 4 }, () => ensureCertificateAuthorities(harness.deps)),
      );
      expect(new Set(results.map((result) => result.root.id)).size).toBe(1);
      expect(new Set(results.map((result) => result.issuing.id)).size).toBe(1);
      const rows = await harness.deps.db.selectFrom('certificate_authorities').selectAll().execute();
      expect(rows.map((row) => row.kind).sort()).toEqual(['issuing', 'root']);
      expect(rows.every((row) => row.key_algorithm === 'ECDSA-P256' && row.key_custody === 'encrypted')).toBe(
        true,
      );
      const events = await harness.deps.db
        .selectFrom('audit_events')
        .innerJoin('accounts', 'accounts.id', 'audit_events.account_id')
        .select(['audit_events.action', 'audit_events.resource_type', 'accounts.system_account'])
        .where('resource_type', '=', 'CERTIFICATE_AUTHORITY')
        .execute();
      expect(events).toEqual([
        { action: 'CREATE', resource_type: 'CERTIFICATE_AUTHORITY', system_account: true },
        { action: 'CREATE', resource_type: 'CERTIFICATE_AUTHORITY', system_account: true },
      ]);
      const root = rows.find((row) => row.kind === 'root');
      const issuing = rows.find((row) => row.kind === 'issuing');
      expect(root?.subject).toBe('CN=Trust Console Root CA,O=Trust Console');
      expect(issuing?.parent_id).toBe(root?.id);
      expect(Number(issuing?.crl_number)).toBe(1);
    } finally {
      await harness.close();
    }
  });
});

describe('CA configuration', () => {
  it('refuses PostgreSQL without a custody for the CA keys', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.example/trust' })).toThrow(
      /DATABASE_URL is set but the CA keys have no custody/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db.example/trust', CA_KEY_ENCRYPTION_KEY_FILE: '/etc/ca.key' })
        .caCustody,
    ).toEqual({ kind: 'encrypted', keyFile: '/etc/ca.key', generated: false });
  });

  it('takes a PKCS#11 token when all three settings are given, and refuses mixtures', () => {
    expect(
      loadConfig({
        CA_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so',
        CA_PKCS11_TOKEN_LABEL: 'ca',
        CA_PKCS11_PIN_FILE: '/etc/ca.pin',
      }).caCustody,
    ).toEqual({
      kind: 'pkcs11',
      module: '/usr/lib/softhsm/libsofthsm2.so',
      tokenLabel: 'ca',
      pinFile: '/etc/ca.pin',
    });
    expect(() => loadConfig({ CA_PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so' })).toThrow(
      /also need CA_PKCS11_TOKEN_LABEL and CA_PKCS11_PIN_FILE/,
    );
    expect(() =>
      loadConfig({ CA_PKCS11_TOKEN_LABEL: 'ca', CA_KEY_ENCRYPTION_KEY_FILE: '/etc/ca.key' }),
    ).toThrow(/not both/);
  });

  it('defaults to ECDSA P-384 and refuses an algorithm it does not know', () => {
    expect(loadConfig({}).caKeyAlgorithm).toBe('ECDSA-P384');
    expect(loadConfig({ CA_KEY_ALGORITHM: 'RSA-3072' }).caKeyAlgorithm).toBe('RSA-3072');
    expect(() => loadConfig({ CA_KEY_ALGORITHM: 'DSA-1024' })).toThrow(/CA_KEY_ALGORITHM must be one of/);
  });

  it('reads a key-encryption key raw or in base64 and never repeats a wrong one', () => {
    const key = randomBytes(32);
    expect(Buffer.from(parseKeyEncryptionKey(key, 'k'))).toEqual(key);
    expect(Buffer.from(parseKeyEncryptionKey(Buffer.from(`${key.toString('base64')}\n`), 'k'))).toEqual(key);
    const wrong = Buffer.from('c2hvcnQtc2VjcmV0');
    expect(() => parseKeyEncryptionKey(wrong, 'CA_KEY_ENCRYPTION_KEY_FILE')).toThrow(
      /must hold 32 random bytes/,
    );
    try {
      parseKeyEncryptionKey(wrong, 'CA_KEY_ENCRYPTION_KEY_FILE');
    } catch (error) {
      expect((error as Error).message).not.toContain('c2hvcnQtc2VjcmV0');
    }
  });
});
