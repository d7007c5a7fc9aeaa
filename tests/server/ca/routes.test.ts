import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { certificateAuthorityListSchema } from '../../../contract/schemas/certificate-authority.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type TestCertificateAuthority, withCertificateAuthority } from './helpers.ts';

let harness: TestApp;
let ca: TestCertificateAuthority;
let viewer: Caller;
let nobody: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  ca = await withCertificateAuthority(harness.deps);
  viewer = await callerWith(harness, { accessScope: 'system', permissions: ['VIEW_CA'] });
  nobody = await callerWith(harness, { accessScope: 'system', permissions: ['VIEW_ACCOUNT'] });
});

afterAll(() => harness.close());

describe('the CA routes', () => {
  it('list the working CAs to a caller who may view them, and no one else', async () => {
    const response = await call(harness, 'GET', apiPaths.certificateAuthority.list, { token: viewer.token });
    expect(response.status).toBe(200);
    const { items: body, total } = v.parse(certificateAuthorityListSchema, await response.json());
    expect(total).toBe(2);
    expect(body.map((item) => item.kind)).toEqual(['root', 'issuing']);
    const issuing = body[1];
    expect(issuing).toMatchObject({
      id: ca.issuing.id,
      key_algorithm: 'ECDSA-P256',
      key_custody: 'encrypted',
      crl_number: 1,
      certificate_url: `${harness.deps.config.publicUrl}${apiPaths.certificateAuthority.certificate(ca.issuing.id, 'crt')}`,
      crl_url: `${harness.deps.config.publicUrl}${apiPaths.certificateAuthority.crl(ca.issuing.id)}`,
      details: {
        subject: { common_name: 'Trust Console Issuing CA' },
        issuer: { common_name: 'Trust Console Root CA' },
        isValid: true,
        version: 3,
      },
    });

    const refused = await call(harness, 'GET', apiPaths.certificateAuthority.list, { token: nobody.token });
    expect(refused.status).toBe(403);
    expect((await call(harness, 'GET', apiPaths.certificateAuthority.list)).status).toBe(401);
  });

  it('answer one CA by id: 404 for an unknown id, then 403 without the permission', async () => {
    const one = await call(harness, 'GET', apiPaths.certificateAuthority.byId(ca.root.id), {
      token: viewer.token,
    });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: ca.root.id, kind: 'root' });
    const missing = await call(harness, 'GET', apiPaths.certificateAuthority.byId(crypto.randomUUID()), {
      token: viewer.token,
    });
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ code: 'notFound' });
    const refused = await call(harness, 'GET', apiPaths.certificateAuthority.byId(ca.root.id), {
      token: nobody.token,
    });
    expect(refused.status).toBe(403);
  });

  it('publish the certificates and CRLs to anyone, with their media types', async () => {
    const crt = await call(harness, 'GET', apiPaths.certificateAuthority.certificate(ca.issuing.id, 'crt'));
    expect(crt.status).toBe(200);
    expect(crt.headers.get('Content-Type')).toBe('application/pkix-cert');
    expect(Buffer.from(await crt.arrayBuffer())).toEqual(Buffer.from(ca.issuing.certificate));

    const pem = await call(harness, 'GET', apiPaths.certificateAuthority.certificate(ca.root.id, 'pem'));
    expect(pem.status).toBe(200);
    expect(await pem.text()).toBe(ca.rootPem);

    const crl = await call(harness, 'GET', apiPaths.certificateAuthority.crl(ca.issuing.id));
    expect(crl.status).toBe(200);
    expect(crl.headers.get('Content-Type')).toBe('application/pkix-crl');
    expect(crl.headers.get('Cache-Control')).toBe('public, max-age=3600');
    const parsed = new x509.X509Crl(Buffer.from(await crl.arrayBuffer()));
    expect(crl.headers.get('Expires')).toBe(parsed.nextUpdate?.toUTCString());
    expect(await parsed.verify({ publicKey: new x509.X509Certificate(ca.issuingPem).publicKey })).toBe(true);

    expect((await call(harness, 'GET', apiPaths.certificateAuthority.crl(crypto.randomUUID()))).status).toBe(
      404,
    );
    expect(
      (await call(harness, 'GET', `${apiPaths.certificateAuthority.list.replace('/ca', '/crl')}/x.pem`))
        .status,
    ).toBe(404);
  });
});
