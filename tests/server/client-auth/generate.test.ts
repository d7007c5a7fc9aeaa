import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type {
  ClientAuthCertificateList,
  ClientAuthGenerated,
} from '../../../contract/schemas/client-auth.ts';
import { revokeCertificate } from '../../../server/ca/revoke.ts';
import { acceptedClientCertificate } from '../../../server/client-auth/check.ts';
import { createCsr, type TestCertificateAuthority, withCertificateAuthority } from '../ca/helpers.ts';
import { scratchFiles, tool } from '../ca/openssl.ts';
import { errorOf } from '../errors.ts';
import { signIn } from '../identity/requests.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { insertTestServiceUser, tokenFor } from '../service-users/helpers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';

/**
 * Generating a client certificate (decision 019): the platform CA issues from the browser's CSR, with
 * the subject of the user's record (never the CSR's) and the clientAuth extended key usage; the chain
 * verifies with OpenSSL, and revoking the certificate stops it at once.
 */

let harness: TestApp;
let admin: Caller;
let ca: TestCertificateAuthority;
let personId: string;
let files: Awaited<ReturnType<typeof scratchFiles>>;

beforeAll(async () => {
  harness = await createTestApp();
  ca = await withCertificateAuthority(harness.deps);
  const user = await harness.createUser({ accessScope: 'system' });
  admin = { ...user, token: (await signIn(harness, user)).accessToken };
  const accountId = await harness.createAccount('Example Corp');
  personId = await insertTestUser(harness, { accountId, userName: 'jane.doe', email: 'jane@example.com' });
  files = await scratchFiles();
});
afterAll(async () => {
  await files.cleanup();
  await harness.close();
});

async function generate(path: string, csr: string): Promise<Response> {
  return call(harness, 'POST', path, { token: admin.token, body: { csr } });
}

describe('POST user/{id}/client-auth-certificate with a CSR', () => {
  it('issues a client certificate that verifies against the chain, in the user’s name, then stops on revocation', async () => {
    const { pem: csr } = await createCsr('EC P-256', 'CN=someone-else,O=Other Corp');
    const response = await generate(apiPaths.users.clientAuthCertificates(personId), csr);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as ClientAuthGenerated;
    expect(answer.item).toMatchObject({
      source: 'issued',
      status: 'issued',
      enabled: true,
      common_name: 'jane.doe',
    });
    expect(answer.item.certificate_id).not.toBeNull();
    expect(answer.chain).toEqual([ca.issuingPem, ca.rootPem]);

    const leaf = await files.write('leaf.pem', answer.certificate);
    const root = await files.write('root.pem', answer.chain[1] ?? '');
    const issuing = await files.write('issuing.pem', answer.chain[0] ?? '');
    const verified = await tool('openssl', [
      'verify',
      '-CAfile',
      root,
      '-untrusted',
      issuing,
      '-purpose',
      'sslclient',
      leaf,
    ]);
    expect(verified.output).toContain(': OK');
    expect(verified.status).toBe(0);
    const text = (await tool('openssl', ['x509', '-in', leaf, '-noout', '-text', '-nameopt', 'RFC2253']))
      .output;
    expect(text).toContain('TLS Web Client Authentication');
    expect(text).toMatch(/Subject: .*CN=jane\.doe/);
    expect(text).toMatch(/Subject: .*O=Example Corp/);
    expect(text).toContain('email:jane@example.com');
    expect(text).not.toContain('someone-else');
    expect(text).not.toContain('Other Corp');

    const certificateRow = await harness.deps.db
      .selectFrom('certificates')
      .select(['source', 'owner_user_id'])
      .where('id', '=', answer.item.certificate_id ?? '')
      .executeTakeFirstOrThrow();
    expect(certificateRow).toEqual({ source: 'client_auth', owner_user_id: personId });

    const der = new Uint8Array(
      Buffer.from(answer.certificate.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64'),
    );
    expect((await acceptedClientCertificate(harness.deps.db, der, new Date()))?.userId).toBe(personId);

    await harness.deps.db.transaction().execute((trx) =>
      revokeCertificate(
        harness.deps,
        trx,
        { id: admin.id, name: admin.userName, address: null },
        {
          certificateId: answer.item.certificate_id ?? '',
          reason: 'keyCompromise',
        },
      ),
    );
    expect(await acceptedClientCertificate(harness.deps.db, der, new Date())).toBeNull();
    const list = await call(harness, 'GET', apiPaths.users.clientAuthCertificates(personId), {
      token: admin.token,
    });
    const { items } = (await list.json()) as ClientAuthCertificateList;
    expect(items.find((item) => item.id === answer.item.id)?.status).toBe('revoked');
  });

  it('refuses a CSR that is not one, or whose key the client-auth policy does not accept, naming the csr', async () => {
    const garbage = await generate(apiPaths.users.clientAuthCertificates(personId), 'not a csr');
    expect(garbage.status).toBe(400);
    expect((await errorOf(garbage)).field).toBe('csr');
    const { pem: weak } = await createCsr('RSA 1024');
    const refused = await generate(apiPaths.users.clientAuthCertificates(personId), weak);
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).field).toBe('csr');
    const certificates = await harness.deps.db
      .selectFrom('client_auth_certificates')
      .select('id')
      .where('user_id', '=', personId)
      .execute();
    expect(certificates).toHaveLength(1);
  });

  it('issues a service user’s certificate in its name, without an e-mail', async () => {
    const { id } = await insertTestServiceUser(harness, {
      accountId: admin.accountId,
      createdBy: admin.id,
      name: 'svc-backup',
    });
    const { pem: csr } = await createCsr('EC P-256');
    const response = await generate(apiPaths.serviceUsers.clientAuthCertificates(id), csr);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as ClientAuthGenerated;
    const leaf = await files.write('service.pem', answer.certificate);
    const text = (await tool('openssl', ['x509', '-in', leaf, '-noout', '-text', '-nameopt', 'RFC2253']))
      .output;
    expect(text).toMatch(/Subject: .*CN=svc-backup/);
    expect(text).not.toContain('email:');
  });

  it('is refused to an API token (403 sessionRequired): a token cannot mint a certificate', async () => {
    const token = await tokenFor(harness, admin.id);
    const { pem: csr } = await createCsr('EC P-256');
    const response = await call(harness, 'POST', apiPaths.users.clientAuthCertificates(personId), {
      token: token.value,
      body: { csr },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('sessionRequired');
  });
});
