import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type {
  ClientAuthCertificate,
  ClientAuthCertificateList,
} from '../../../contract/schemas/client-auth.ts';
import { acceptedClientCertificate } from '../../../server/client-auth/check.ts';
import { errorOf } from '../errors.ts';
import { signIn } from '../identity/requests.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { insertTestServiceUser } from '../service-users/helpers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';
import {
  insertIssuedClientCertificate,
  insertPlatformCa,
  type PlatformCa,
  selfSigned,
  uploadedFor,
  uploadFile,
} from './helpers.ts';

/**
 * Client-authentication certificates (decision 019): uploads in every form the API takes and every
 * way one is refused, the list, enabling and disabling on a version, the setup mail, and the check a
 * sign-in will make (`acceptedClientCertificate`), which reads the database every time.
 */

let harness: TestApp;
let admin: Caller;
let personId: string;
let serviceUserId: string;
let ca: PlatformCa;

beforeAll(async () => {
  harness = await createTestApp();
  const user = await harness.createUser({ accessScope: 'system' });
  admin = { ...user, token: (await signIn(harness, user)).accessToken };
  personId = await insertTestUser(harness, { accountId: admin.accountId, userName: 'jane.doe' });
  serviceUserId = (await insertTestServiceUser(harness, { accountId: admin.accountId, createdBy: admin.id }))
    .id;
  ca = await insertPlatformCa(harness);
});
afterAll(() => harness.close());

const listPath = () => apiPaths.users.clientAuthCertificates(personId);

async function listOf(path = listPath()): Promise<ClientAuthCertificateList> {
  const response = await call(harness, 'GET', path, { token: admin.token });
  expect(response.status).toBe(200);
  return (await response.json()) as ClientAuthCertificateList;
}

describe('upload', () => {
  it('registers a PEM certificate sent as JSON, with its thumbprint, expiry and common name, and audits it', async () => {
    const certificate = await selfSigned({ cn: 'Jane PEM' });
    const response = await call(harness, 'POST', listPath(), {
      token: admin.token,
      body: { certificate: certificate.pem },
    });
    expect(response.status).toBe(201);
    const { item } = (await response.json()) as { item: ClientAuthCertificate };
    expect(response.headers.get('ETag')).toBe(`"${item.version}"`);
    expect(item).toMatchObject({
      source: 'uploaded',
      common_name: 'Jane PEM',
      enabled: true,
      status: 'issued',
      certificate_id: null,
      sha256_fingerprint: new X509Certificate(certificate.der).fingerprint256,
      not_after: certificate.x509.notAfter.toISOString(),
    });
    const list = await listOf();
    expect(list.items.map((entry) => entry.id)).toContain(item.id);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ action: 'CREATE', resource_type: 'CLIENT_AUTH_CERT' });
    const details = JSON.stringify(event.details);
    expect(details).toContain(item.sha256_fingerprint);
    // Never the certificate's bytes.
    expect(details).not.toContain(certificate.pem.split('\n')[1]);
  });

  it('registers the raw DER file and the raw PEM file sent as application/x-x509-ca-cert', async () => {
    const der = await selfSigned({ cn: 'Jane DER' });
    const derResponse = await uploadFile(harness, admin.token, listPath(), der.der);
    expect(derResponse.status).toBe(201);
    expect(((await derResponse.json()) as { item: ClientAuthCertificate }).item.common_name).toBe('Jane DER');
    const pem = await selfSigned({ cn: 'Jane raw PEM' });
    const pemResponse = await uploadFile(harness, admin.token, listPath(), pem.pem);
    expect(pemResponse.status).toBe(201);
  });

  it('registers DER sent in JSON as base64', async () => {
    const certificate = await selfSigned({ cn: 'Jane base64' });
    const response = await call(harness, 'POST', listPath(), {
      token: admin.token,
      body: { certificate: Buffer.from(certificate.der).toString('base64') },
    });
    expect(response.status).toBe(201);
  });

  it.each([
    ['garbage text', async () => 'this is not a certificate', 'certificateUnreadable'],
    [
      'a PEM block of garbage',
      async () => '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      'certificateUnreadable',
    ],
    [
      'trailing garbage after END CERTIFICATE',
      async () => `${(await selfSigned()).pem}\nextra`,
      'notOneCertificate',
    ],
    [
      'two certificates',
      async () => `${(await selfSigned()).pem}\n${(await selfSigned()).pem}`,
      'notOneCertificate',
    ],
    [
      'a private key',
      async () => '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
      'certificateUnreadable',
    ],
  ])('refuses %s with 400 naming the certificate', async (_name, body, code) => {
    const response = await uploadFile(harness, admin.token, listPath(), await body());
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'certificate', code });
  });

  it('refuses DER with bytes after the certificate', async () => {
    const certificate = await selfSigned();
    const response = await uploadFile(
      harness,
      admin.token,
      listPath(),
      new Uint8Array([...certificate.der, 0x00, 0x01]),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('notOneCertificate');
  });

  it('refuses a file over 4 KB with 413, raw or in JSON', async () => {
    const big = await selfSigned({ extraName: `,O=${'x'.repeat(5000)}` });
    expect(big.pem.length).toBeGreaterThan(4096);
    const raw = await uploadFile(harness, admin.token, listPath(), big.pem);
    expect(raw.status).toBe(413);
    const json = await call(harness, 'POST', listPath(), {
      token: admin.token,
      body: { certificate: big.pem },
    });
    expect(json.status).toBe(413);
    const five = await uploadFile(harness, admin.token, listPath(), new Uint8Array(5 * 1024).fill(0x41));
    expect(five.status).toBe(413);
  });

  it('refuses an expired certificate with 400 certificateExpired', async () => {
    const expired = await selfSigned({
      notBefore: new Date(Date.now() - 20 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const response = await uploadFile(harness, admin.token, listPath(), expired.pem);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'certificate', code: 'certificateExpired' });
  });

  it('refuses a certificate the user already has with 409 inUse; another user may register it', async () => {
    const certificate = await selfSigned({ cn: 'Shared' });
    expect((await uploadFile(harness, admin.token, listPath(), certificate.pem)).status).toBe(201);
    const again = await uploadFile(harness, admin.token, listPath(), certificate.der);
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({ field: 'certificate', code: 'inUse' });
    const other = await insertTestUser(harness, { accountId: admin.accountId });
    const elsewhere = await uploadFile(
      harness,
      admin.token,
      apiPaths.users.clientAuthCertificates(other),
      certificate.pem,
    );
    expect(elsewhere.status).toBe(201);
  });

  it('refuses a body that is neither JSON nor a certificate with 415', async () => {
    const response = await harness.app.request(listPath(), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${admin.token}` },
      body: 'x',
    });
    expect(response.status).toBe(415);
  });
});

describe('people and service users', () => {
  it("answers 404 for a service user's id on the people routes and for a person's on the service-user routes", async () => {
    expect(
      (
        await call(harness, 'GET', apiPaths.users.clientAuthCertificates(serviceUserId), {
          token: admin.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(harness, 'GET', apiPaths.serviceUsers.clientAuthCertificates(personId), {
          token: admin.token,
        })
      ).status,
    ).toBe(404);
  });

  it("lists and uploads a service user's certificates on its own routes", async () => {
    const path = apiPaths.serviceUsers.clientAuthCertificates(serviceUserId);
    const item = await uploadedFor(harness, admin.token, serviceUserId, path);
    expect((await listOf(path)).items.map((entry) => entry.id)).toEqual([item.id]);
  });
});

describe('enable', () => {
  it('disables and enables on the version named in If-Match: 428 without, 412 on an old one', async () => {
    const item = await uploadedFor(harness, admin.token, personId);
    const path = apiPaths.users.clientAuthCertificateEnable(personId, item.id);
    const without = await call(harness, 'PUT', path, { token: admin.token, body: { enabled: false } });
    expect(without.status).toBe(428);
    const disabled = await call(harness, 'PUT', path, {
      token: admin.token,
      body: { enabled: false },
      headers: { 'If-Match': `"${item.version}"` },
    });
    expect(disabled.status).toBe(204);
    const version = disabled.headers.get('ETag');
    expect(version).toBe(`"${item.version + 1}"`);
    const stale = await call(harness, 'PUT', path, {
      token: admin.token,
      body: { enabled: true },
      headers: { 'If-Match': `"${item.version}"` },
    });
    expect(stale.status).toBe(412);
    expect((await listOf()).items.find((entry) => entry.id === item.id)?.enabled).toBe(false);
    const enabled = await call(harness, 'PUT', path, {
      token: admin.token,
      body: { enabled: true },
      headers: { 'If-Match': version ?? '' },
    });
    expect(enabled.status).toBe(204);
    expect((await listOf()).items.find((entry) => entry.id === item.id)?.enabled).toBe(true);
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('resource_id', '=', item.id)
      .orderBy('seq')
      .execute();
    expect(events.map((event) => event.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expect(events[1]?.details).toEqual({ changes: { enabled: { from: true, to: false } } });
  });

  it('answers 404 for a certificate of another user', async () => {
    const other = await insertTestUser(harness, { accountId: admin.accountId });
    const item = await uploadedFor(harness, admin.token, other);
    const response = await call(
      harness,
      'PUT',
      apiPaths.users.clientAuthCertificateEnable(personId, item.id),
      {
        token: admin.token,
        body: { enabled: false },
        headers: { 'If-Match': `"${item.version}"` },
      },
    );
    expect(response.status).toBe(404);
  });
});

describe('status of issued certificates', () => {
  it('shows issued, then revoked once its platform certificate is revoked, with the certificate id', async () => {
    const userId = await insertTestUser(harness, { accountId: admin.accountId });
    const { certificateId, clientAuthId } = await insertIssuedClientCertificate(harness, ca, userId);
    const path = apiPaths.users.clientAuthCertificates(userId);
    expect((await listOf(path)).items).toMatchObject([
      { id: clientAuthId, source: 'issued', status: 'issued', certificate_id: certificateId },
    ]);
    await harness.deps.db
      .updateTable('certificates')
      .set({ revoked_at: new Date(), revocation_reason: 'keyCompromise' })
      .where('id', '=', certificateId)
      .execute();
    expect((await listOf(path)).items[0]?.status).toBe('revoked');
  });
});

describe('the setup mail (sendSetupCacBasedLoginEmail)', () => {
  it('queues the mail to the person, audits it, and refuses a second within a minute', async () => {
    const path = apiPaths.users.sendSetupCacBasedLoginEmail(personId);
    const response = await call(harness, 'POST', path, { token: admin.token });
    expect(response.status).toBe(204);
    const mail = await harness.deps.db
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address'])
      .where('user_id', '=', personId)
      .execute();
    expect(mail).toEqual([{ kind: 'client_auth_setup', to_address: 'jane.doe@example.com' }]);
    const audited = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'resource_type'])
      .where('action', '=', 'SEND_CLIENT_AUTH_SETUP')
      .execute();
    expect(audited).toEqual([{ action: 'SEND_CLIENT_AUTH_SETUP', resource_type: 'CLIENT_AUTH_CERT' }]);
    expect((await call(harness, 'POST', path, { token: admin.token })).status).toBe(429);
  });

  it('is not a route of service users', async () => {
    const response = await call(harness, 'POST', apiPaths.users.sendSetupCacBasedLoginEmail(serviceUserId), {
      token: admin.token,
    });
    expect(response.status).toBe(404);
  });
});

describe('acceptedClientCertificate', () => {
  it('accepts an enabled uploaded certificate, and nobody the moment it is disabled', async () => {
    const userId = await insertTestUser(harness, { accountId: admin.accountId });
    const certificate = await selfSigned({ cn: 'Sign-in' });
    const response = await uploadFile(
      harness,
      admin.token,
      apiPaths.users.clientAuthCertificates(userId),
      certificate.der,
    );
    const { item } = (await response.json()) as { item: ClientAuthCertificate };
    const now = new Date();
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, now)).toEqual({
      userId,
      clientAuthCertificateId: item.id,
    });
    await call(harness, 'PUT', apiPaths.users.clientAuthCertificateEnable(userId, item.id), {
      token: admin.token,
      body: { enabled: false },
      headers: { 'If-Match': `"${item.version}"` },
    });
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, now)).toBeNull();
  });

  it('accepts an issued certificate that chains to the platform CA, and nobody the moment it is revoked', async () => {
    const userId = await insertTestUser(harness, { accountId: admin.accountId });
    const { certificate, certificateId } = await insertIssuedClientCertificate(harness, ca, userId);
    const now = new Date();
    expect((await acceptedClientCertificate(harness.deps.db, certificate.der, now))?.userId).toBe(userId);
    await harness.deps.db
      .updateTable('certificates')
      .set({ revoked_at: now, revocation_reason: 'keyCompromise' })
      .where('id', '=', certificateId)
      .execute();
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, now)).toBeNull();
  });

  it('refuses an issued row whose certificate does not chain to the platform CA', async () => {
    const userId = await insertTestUser(harness, { accountId: admin.accountId });
    // Signed by a key of the same name that is not the platform issuing CA's.
    const { certificate } = await insertIssuedClientCertificate(
      harness,
      { ...ca, issuing: await selfSigned({ cn: 'Test Issuing CA', ca: true }) },
      userId,
    );
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, new Date())).toBeNull();
  });

  it('refuses an unknown, an expired, a disabled user’s and an unreadable certificate', async () => {
    const unknown = await selfSigned();
    expect(await acceptedClientCertificate(harness.deps.db, unknown.der, new Date())).toBeNull();
    expect(
      await acceptedClientCertificate(harness.deps.db, new Uint8Array([1, 2, 3]), new Date()),
    ).toBeNull();

    const userId = await insertTestUser(harness, { accountId: admin.accountId });
    const certificate = await selfSigned();
    await uploadFile(harness, admin.token, apiPaths.users.clientAuthCertificates(userId), certificate.der);
    const later = new Date(Date.now() + 400 * 86_400_000);
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, later)).toBeNull();
    await harness.deps.db.updateTable('users').set({ active: false }).where('id', '=', userId).execute();
    expect(await acceptedClientCertificate(harness.deps.db, certificate.der, new Date())).toBeNull();
  });
});
