import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCertificate as agentCertificate } from '../../../agent/keystores/x509.ts';
import type { ProfilePolicy } from '../../../contract/certificate-policy.ts';
import type { AuditActor } from '../../../server/audit/change.ts';
import { describeCertificate } from '../../../server/ca/describe.ts';
import { exportCertificate } from '../../../server/ca/export.ts';
import { type IssueRequest, issueCertificate } from '../../../server/ca/issue.ts';
import { revokeCertificate } from '../../../server/ca/revoke.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { summarizeCertificate } from '../../../src/lib/certificate-summary.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  createCsr,
  TEST_POLICY,
  type TestCertificateAuthority,
  withCertificateAuthority,
} from './helpers.ts';
import { scratchFiles, tool, toolsAvailable } from './openssl.ts';

let harness: TestApp;
let ca: TestCertificateAuthority;
let actor: AuditActor;
let accountId: string;
let files: Awaited<ReturnType<typeof scratchFiles>>;
let p256Csr: string;

beforeAll(async () => {
  harness = await createTestApp();
  ca = await withCertificateAuthority(harness.deps);
  const admin = await harness.createUser();
  actor = { id: admin.id, name: admin.userName, address: '192.0.2.1' };
  accountId = await harness.createAccount();
  files = await scratchFiles();
  p256Csr = (await createCsr('EC P-256', 'CN=evil.example,O=Not Copied')).pem;
});

afterAll(async () => {
  await files.cleanup();
  await harness.close();
});

function issue(overrides: Partial<IssueRequest> = {}) {
  return harness.deps.db.transaction().execute((trx) =>
    issueCertificate(harness.deps, trx, actor, {
      csr: p256Csr,
      policy: TEST_POLICY,
      subject: { common_name: 'alice' },
      accountId,
      profile: null,
      source: 'profile',
      ownerUserId: null,
      ...overrides,
    }),
  );
}

async function chainFiles() {
  const crls = await ca.crlsPem();
  return {
    root: await files.write('root.pem', ca.rootPem),
    issuing: await files.write('issuing.pem', ca.issuingPem),
    crls: await files.write(`crls-${Date.now()}-${Math.random()}.pem`, crls.root + crls.issuing),
  };
}

describe('issued certificates', () => {
  it('verify with openssl against the root and issuing CA, and fail the CRL check once revoked', async () => {
    const issued = await issue({
      subject: { common_name: 'alice', organization_name: 'Example Ltd', emails: ['alice@example.com'] },
    });
    expect(issued.row.subject).toBe('CN=alice,O=Example Ltd');
    expect(issued.row.key_algorithm).toBe('EC P-256');
    const leaf = await files.write('leaf.pem', issued.pem);
    const chain = await chainFiles();

    const text = await tool('openssl', ['x509', '-in', leaf, '-noout', '-text', '-nameopt', 'RFC2253']);
    expect(text.output).toContain('Subject: CN=alice,O=Example Ltd');
    expect(text.output).not.toContain('evil.example');
    expect(text.output).not.toContain('Not Copied');
    expect(text.output).toContain('email:alice@example.com');
    expect(text.output).toContain('TLS Web Client Authentication');

    const verify = (crls: string) =>
      tool('openssl', [
        'verify',
        '-CAfile',
        chain.root,
        '-untrusted',
        chain.issuing,
        '-crl_check_all',
        '-CRLfile',
        crls,
        leaf,
      ]);
    const before = await verify(chain.crls);
    expect(before.output).toContain(': OK');
    expect(before.status).toBe(0);

    await harness.deps.db.transaction().execute((trx) =>
      revokeCertificate(harness.deps, trx, actor, {
        certificateId: issued.row.id,
        reason: 'keyCompromise',
      }),
    );
    const refused = await verify((await chainFiles()).crls);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('certificate revoked');

    const crlText = await tool('openssl', [
      'crl',
      '-in',
      await files.write('issuing.crl.pem', (await ca.crlsPem()).issuing),
      '-noout',
      '-text',
    ]);
    expect(crlText.output).toContain(`Serial Number: ${issued.row.serial_number.toUpperCase()}`);
    expect(crlText.output).toContain('Key Compromise');
  });

  it('answers 409 and changes nothing when the certificate is already revoked', async () => {
    const issued = await issue();
    const revoke = () =>
      harness.deps.db
        .transaction()
        .execute((trx) =>
          revokeCertificate(harness.deps, trx, actor, { certificateId: issued.row.id, reason: 'superseded' }),
        );
    await revoke();
    const crlNumber = async () =>
      Number(
        (
          await harness.deps.db
            .selectFrom('certificate_authorities')
            .select('crl_number')
            .where('id', '=', ca.issuing.id)
            .executeTakeFirstOrThrow()
        ).crl_number,
      );
    const numberAfterFirst = await crlNumber();
    await expect(revoke()).rejects.toMatchObject({ status: 409 });
    expect(await crlNumber()).toBe(numberAfterFirst);
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'details', 'actor_name'])
      .where('resource_id', '=', issued.row.id)
      .orderBy('occurred_at')
      .execute();
    expect(events.map((event) => event.action)).toEqual(['CREATE', 'UPDATE']);
    expect(events[1]?.details).toMatchObject({
      changes: {
        status: { from: 'issued', to: 'revoked' },
        revocation_reason: { from: null, to: 'superseded' },
      },
    });
  });

  it('gives Authentication what signing in takes: a signature, and key transport for an RSA key, never non-repudiation', async () => {
    const usages = async (keyType: 'RSA 2048' | 'EC P-256') => {
      const issued = await issue({ csr: (await createCsr(keyType)).pem });
      const leaf = await files.write(`authentication-${keyType.replace(' ', '-')}.pem`, issued.pem);
      const text = await tool('openssl', ['x509', '-in', leaf, '-noout', '-ext', 'keyUsage']);
      expect(text.status).toBe(0);
      return text.output.replace(/\s+/g, ' ').trim();
    };
    // RSA: smart-card logon (PKINIT) may have the KDC encrypt the reply key to the certificate's key.
    expect(await usages('RSA 2048')).toBe('X509v3 Key Usage: critical Digital Signature, Key Encipherment');
    // EC: ECDHE and PKINIT's Diffie-Hellman use ephemeral keys; the certificate's key only signs.
    expect(await usages('EC P-256')).toBe('X509v3 Key Usage: critical Digital Signature');
  });

  it('show their issuer and subject most specific first on every screen, as openssl prints RFC 4514', async () => {
    const issued = await issue({
      subject: {
        common_name: 'Ada Lovelace, Analyst',
        organization_units: ['Field'],
        organization_name: 'Northwind',
        country: 'DE',
      },
    });
    const leaf = await files.write('names.pem', issued.pem);
    const printed = await tool('openssl', [
      'x509',
      '-in',
      leaf,
      '-noout',
      '-nameopt',
      'RFC2253',
      '-issuer',
      '-subject',
    ]);
    expect(printed.status).toBe(0);
    const issuer = /^issuer=(.*)$/m.exec(printed.output)?.[1];
    const subject = /^subject=(.*)$/m.exec(printed.output)?.[1];
    expect(issuer).toMatch(/^CN=.* Issuing CA,O=/);
    expect(subject).toBe('CN=Ada Lovelace\\, Analyst,OU=Field,O=Northwind,C=DE');

    const onThePage = summarizeCertificate(issued.pem);
    expect(onThePage.issuer).toBe(issuer);
    expect(onThePage.subject).toBe(subject);
    const fromTheAgent = agentCertificate(new x509.X509Certificate(issued.pem));
    expect(fromTheAgent.issuer).toBe(issuer);
    expect(fromTheAgent.subject).toBe(subject);
    const onTheCertificatePage = await describeCertificate(new x509.X509Certificate(issued.pem), new Date());
    expect(onTheCertificatePage.issuer.distinguished_name).toBe(issuer);
    expect(onTheCertificatePage.subject.distinguished_name).toBe(subject);
    // The stored subject of the issuing CA is written in the same order.
    expect(issuer).toBe(ca.issuing.subject);
  });

  it('maps key usages, extended key usages and names from the policy, and gnutls reads and verifies it', async () => {
    const policy: ProfilePolicy = {
      ...TEST_POLICY,
      key_usages: ['DigitalSignature', 'KeyManagement', 'CardAuthentication'],
      extended_key_usages: ['clientAuth', 'smartcardLogon'],
    };
    const issued = await issue({
      policy,
      subject: {
        common_name: 'bob',
        country: 'de',
        dns_names: ['host.example.com'],
        user_principal_names: ['bob@corp.example'],
      },
    });
    const leaf = await files.write('mapped.pem', issued.pem);
    const text = await tool('openssl', ['x509', '-in', leaf, '-noout', '-text']);
    expect(text.output).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation, Key Agreement/);
    expect(text.output).toContain('Microsoft Smartcard Login');
    expect(text.output).toContain('2.16.840.1.101.3.6.8');
    expect(text.output).toContain('DNS:host.example.com');
    expect(text.output).toMatch(/othername: (UPN|msUPN)[:: ]+bob@corp\.example/);
    expect(text.output).toContain('CA:FALSE');
    expect(text.output).toContain(`crl/${ca.issuing.id}.crl`);
    expect(text.output).toContain(`ca/${ca.issuing.id}/certificate.crt`);

    if (!toolsAvailable('the GnuTLS cross-checks', 'certtool')) return;
    const info = await tool('certtool', ['--certificate-info', '--infile', leaf]);
    expect(info.status).toBe(0);
    expect(info.output).toContain('CN=bob');
    const bundle = await files.write('bundle.pem', issued.pem + issued.chain.join(''));
    const chain = await chainFiles();
    const verified = await tool('certtool', [
      '--verify',
      '--load-ca-certificate',
      chain.root,
      '--infile',
      bundle,
    ]);
    expect(verified.output).toContain('Chain verification output: Verified');
    expect(verified.status).toBe(0);
  });

  it('never issues past the issuing CA and serial numbers are positive 128-bit integers', async () => {
    const issued = await issue({ policy: { ...TEST_POLICY, validity_days: 1095 } });
    const days = (issued.row.not_after.getTime() - issued.row.not_before.getTime()) / 86_400_000;
    expect(days).toBe(1095);
    expect(issued.row.serial_number).toMatch(/^[4-7][0-9a-f]{31}$/);
    // Issued 100 days before the issuing CA expires: the certificate ends with it.
    const issuingEnd = new Date(ca.issuing.not_after).getTime();
    const late = { ...harness.deps, now: () => new Date(issuingEnd - 100 * 86_400_000) };
    const cert = await harness.deps.db.transaction().execute((trx) =>
      issueCertificate(late, trx, actor, {
        csr: p256Csr,
        policy: { ...TEST_POLICY, validity_days: 365 },
        subject: { common_name: 'late' },
        accountId: null,
        profile: null,
        source: 'profile',
        ownerUserId: null,
      }),
    );
    expect(cert.row.not_after.getTime()).toBe(issuingEnd);
  });

  it('parses its certificates and exports them as PEM, DER and PKCS#7 with the chain', async () => {
    const issued = await issue({ subject: { common_name: 'carol', organization_name: 'Example Ltd' } });
    const details = await describeCertificate(issued.row.certificate, harness.deps.now());
    expect(details).toMatchObject({
      subject: {
        common_name: 'carol',
        organization: 'Example Ltd',
        distinguished_name: 'CN=carol,O=Example Ltd',
      },
      issuer: { common_name: 'Trust Console Issuing CA', organization: 'Trust Console' },
      isValid: true,
      version: 3,
      serial_number: issued.row.serial_number,
      key_algorithm: 'EC P-256',
      signature_algorithm: 'ecdsa-with-SHA256',
    });
    const fingerprint = await tool('openssl', [
      'x509',
      '-in',
      await files.write('carol.pem', issued.pem),
      '-noout',
      '-fingerprint',
      '-sha256',
    ]);
    expect(fingerprint.output).toContain(details.sha256_fingerprint);
    expect(issued.row.sha256_fingerprint).toBe(details.sha256_fingerprint.replaceAll(':', '').toLowerCase());

    const chain = [ca.issuing.certificate, ca.root.certificate];
    const p7b = exportCertificate(issued.row.certificate, chain, 'p7b');
    const printed = await tool('openssl', [
      'pkcs7',
      '-inform',
      'DER',
      '-in',
      await files.write('carol.p7b', p7b.body),
      '-print_certs',
      '-noout',
    ]);
    expect(printed.status).toBe(0);
    expect(printed.output.match(/subject=/g)).toHaveLength(3);
    expect(printed.output).toMatch(/CN ?= ?carol/);
    const der = exportCertificate(issued.row.certificate, chain, 'der');
    expect(new x509.X509Certificate(Buffer.from(der.body)).serialNumber.toLowerCase()).toBe(
      issued.row.serial_number,
    );
    const pem = exportCertificate(issued.row.certificate, chain, 'pem');
    expect(String(pem.body).match(/BEGIN CERTIFICATE/g)).toHaveLength(3);
  });

  it('records who issued it on the account, with no key material', async () => {
    const issued = await issue({ subject: { common_name: 'dave' } });
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', issued.row.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      action: 'CREATE',
      resource_type: 'CERTIFICATE',
      account_id: accountId,
      actor_id: actor.id,
      ip_address: '192.0.2.1',
    });
    expect(event.details).toMatchObject({ common_name: 'dave', serial_number: issued.row.serial_number });
    expect(issued.row.issued_by).toBe(actor.id);
  });
});

describe('refused requests', () => {
  async function counts() {
    const [certificates, events] = await Promise.all([
      harness.deps.db
        .selectFrom('certificates')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
      harness.deps.db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return [Number(certificates.n), Number(events.n)];
  }

  async function expectRefused(request: Partial<IssueRequest>, field: string, code: string, message: RegExp) {
    const before = await counts();
    const error = await issue(request).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ status: 400, detail: { field, code } });
    expect((error as Error).message).toMatch(message);
    expect(await counts()).toEqual(before);
  }

  it('refuses a CSR whose signature does not verify', async () => {
    const der = Buffer.from(p256Csr.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    // The last octet is the end of the signature's s value.
    der[der.length - 1] = (der[der.length - 1] ?? 0) ^ 0x01;
    const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE REQUEST-----\n`;
    await expectRefused({ csr: pem }, 'csr', 'csrSignatureInvalid', /signature that does not verify/);
  });

  it('refuses an RSA 1024 key as too weak', async () => {
    const { pem } = await createCsr('RSA 1024');
    await expectRefused({ csr: pem }, 'csr', 'keyTooWeak', /RSA 1024 key, which is too weak/);
  });

  it('refuses a key the profile does not accept, and one that is neither RSA nor EC', async () => {
    await expectRefused(
      { policy: { ...TEST_POLICY, key_types: { rsa: [2048], ec: ['P-384'] } } },
      'csr',
      'keyTypeNotAllowed',
      /EC P-256 key, which the profile does not accept/,
    );
    const ed = await tool('openssl', [
      'req',
      '-new',
      '-newkey',
      'ed25519',
      '-nodes',
      '-keyout',
      '/dev/null',
      '-subj',
      '/CN=ed',
    ]);
    await expectRefused(
      {
        csr:
          /-----BEGIN CERTIFICATE REQUEST-----[^-]+-----END CERTIFICATE REQUEST-----/.exec(ed.output)?.[0] ??
          '',
      },
      'csr',
      'keyTypeNotAllowed',
      /Ed25519/,
    );
  });

  it('refuses trailing text, two PEM blocks, another PEM type and text that is not PEM', async () => {
    await expectRefused({ csr: `${p256Csr}garbage\n` }, 'csr', 'csrInvalid', /text after -----END/);
    await expectRefused({ csr: `${p256Csr}${p256Csr}` }, 'csr', 'csrInvalid', /holds 2 PEM blocks/);
    await expectRefused({ csr: ca.rootPem }, 'csr', 'csrInvalid', /"CERTIFICATE" block/);
    await expectRefused({ csr: 'hello' }, 'csr', 'csrInvalid', /not a PEM certificate request/);
    await expectRefused(
      { csr: p256Csr.replace(/(BEGIN CERTIFICATE REQUEST-----\n)/, '$1AAAA') },
      'csr',
      'csrInvalid',
      /bytes after|not DER|not a PKCS#10/,
    );
  });

  it('names the subject field a policy requires or forbids', async () => {
    await expectRefused({ subject: {} }, 'common_name', 'required', /common_name: is required/);
    await expectRefused(
      { subject: { common_name: 'x', street_address: 'Main Street 1' } },
      'street_address',
      'notAllowed',
      /street_address: is not allowed/,
    );
    await expectRefused(
      { subject: { common_name: 'x', emails: ['not-an-address'] } },
      'emails',
      'invalidEmail',
      /not an e-mail address/,
    );
  });
});
