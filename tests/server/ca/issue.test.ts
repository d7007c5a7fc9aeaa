import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditActor } from '../../../server/audit/change.ts';
import { issueCertificate } from '../../../server/ca/issue.ts';
import { revokeCertificate } from '../../../server/ca/revoke.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import {
  createCsr,
  TEST_POLICY,
  type TestCertificateAuthority,
  withCertificateAuthority,
} from './helpers.ts';
import { scratchFiles, tool } from './openssl.ts';

let harness: TestApp;
let ca: TestCertificateAuthority;
let admin: TestUser;
let actor: AuditActor;
let files: Awaited<ReturnType<typeof scratchFiles>>;

beforeAll(async () => {
  harness = await createTestApp();
  ca = await withCertificateAuthority(harness.deps);
  admin = await harness.createUser();
  actor = { id: admin.id, name: admin.userName, address: '192.0.2.1' };
  files = await scratchFiles();
});

afterAll(async () => {
  await files.cleanup();
  await harness.close();
});

describe('issued certificates', () => {
  it('verify with openssl against the root and issuing CA, and fail the CRL check once revoked', async () => {
    const { pem } = await createCsr('EC P-256', 'CN=evil.example,O=Not Copied');
    const accountId = await harness.createAccount();
    const issued = await harness.deps.db.transaction().execute((trx) =>
      issueCertificate(harness.deps, trx, actor, {
        csr: pem,
        policy: TEST_POLICY,
        subject: { common_name: 'alice', organization_name: 'Example Ltd', emails: ['alice@example.com'] },
        accountId,
        profile: null,
        source: 'profile',
        ownerUserId: null,
      }),
    );
    expect(issued.row.subject).toBe('CN=alice,O=Example Ltd');
    expect(issued.row.key_algorithm).toBe('EC P-256');
    const root = await files.write('root.pem', ca.rootPem);
    const issuing = await files.write('issuing.pem', ca.issuingPem);
    const leaf = await files.write('leaf.pem', issued.pem);
    const crls = await ca.crlsPem();
    const crlFile = await files.write('crls.pem', crls.root + crls.issuing);

    const text = await tool('openssl', ['x509', '-in', leaf, '-noout', '-text', '-nameopt', 'RFC2253']);
    expect(text.output).toContain('Subject: CN=alice,O=Example Ltd');
    expect(text.output).not.toContain('evil.example');
    expect(text.output).toContain('email:alice@example.com');
    expect(text.output).toContain('TLS Web Client Authentication');

    const verify = (crl: string) =>
      tool('openssl', [
        'verify',
        '-CAfile',
        root,
        '-untrusted',
        issuing,
        '-crl_check_all',
        '-CRLfile',
        crl,
        leaf,
      ]);
    const before = await verify(crlFile);
    expect(before.output).toContain('OK');
    expect(before.status).toBe(0);

    await harness.deps.db.transaction().execute((trx) =>
      revokeCertificate(harness.deps, trx, actor, {
        certificateId: issued.row.id,
        reason: 'keyCompromise',
      }),
    );
    const after = await ca.crlsPem();
    const revokedCrl = await files.write('crls-after.pem', after.root + after.issuing);
    const refused = await verify(revokedCrl);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('certificate revoked');
  });
});
