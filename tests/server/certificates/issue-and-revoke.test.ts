import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Certificate, CertificateIssued } from '../../../contract/schemas/certificates.ts';
import type { ApiErrorCode, PreconditionFailedBody } from '../../../contract/schemas/common.ts';
import { createCsr, type TestCertificateAuthority, withCertificateAuthority } from '../ca/helpers.ts';
import { scratchFiles, tool } from '../ca/openssl.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { insertTestProfile } from './helpers.ts';

/**
 * POST certificate (issue under a profile) and POST certificate/{id}/revoke with the platform's
 * working CA: what is issued, what is refused and why, the order of checks of a revocation (404, 403,
 * 409, 428, 412), the CRL naming a revoked certificate, and who may revoke and issue.
 */

let harness: TestApp;
let ca: TestCertificateAuthority;
let callers: Record<MatrixCaller, Caller>;
let accountA: string;
let profileA: { id: string; name: string };
let profileB: { id: string; name: string };
let files: Awaited<ReturnType<typeof scratchFiles>>;

beforeAll(async () => {
  harness = await createTestApp();
  ca = await withCertificateAuthority(harness.deps);
  const made = await matrixCallers(harness);
  callers = made.callers;
  accountA = made.accountA;
  profileA = await insertTestProfile(harness, made.accountA, 'Devices of A');
  profileB = await insertTestProfile(harness, made.accountB, 'Devices of B');
  files = await scratchFiles();
});
afterAll(async () => {
  await files.cleanup();
  await harness.close();
});

async function issue(caller: Caller, body: Record<string, unknown>) {
  return call(harness, 'POST', apiPaths.certificates.list, { token: caller.token, body });
}

async function issued(commonName: string, profile = profileA): Promise<CertificateIssued> {
  const { pem } = await createCsr('EC P-256');
  const response = await issue(callers.system, { profile_id: profile.id, csr: pem, common_name: commonName });
  expect(response.status).toBe(201);
  return (await response.json()) as CertificateIssued;
}

const revoke = (caller: Caller, id: string, options: { reason?: string; ifMatch?: string } = {}) =>
  call(harness, 'POST', apiPaths.certificates.revoke(id), {
    token: caller.token,
    body: { reason: options.reason ?? 'superseded' },
    headers: options.ifMatch === undefined ? {} : { 'If-Match': options.ifMatch },
  });

describe('POST certificate', () => {
  it('issues under the profile with the subject asked for, never the CSR’s, and answers the chain', async () => {
    const { pem } = await createCsr('EC P-256', 'CN=copied.example,O=Not Copied');
    const response = await issue(callers['account admin'], {
      profile_id: profileA.id,
      csr: pem,
      common_name: 'sensor-7.example.com',
      organization_name: 'Example Org',
    });
    expect(response.status).toBe(201);
    const certificate = (await response.json()) as CertificateIssued;
    expect(response.headers.get('Location')).toBe(apiPaths.certificates.byId(certificate.id));
    expect(certificate).toMatchObject({
      common_name: 'sensor-7.example.com',
      source: 'profile',
      profile_name: 'Devices of A',
      account: { id: accountA },
      status: 'issued',
      key_algorithm: 'EC P-256',
      version: 1,
    });
    expect(certificate.chain).toEqual([ca.issuingPem, ca.rootPem]);
    const leaf = await files.write('leaf.pem', certificate.pem);
    const chain = await files.write('chain.pem', certificate.chain.join(''));
    const subject = await tool('openssl', ['x509', '-in', leaf, '-noout', '-subject']);
    expect(subject.output).toContain('CN = sensor-7.example.com');
    expect(subject.output).not.toContain('Not Copied');
    const verified = await tool('openssl', ['verify', '-CAfile', chain, leaf]);
    expect(verified).toMatchObject({ status: 0 });
  });

  it('refuses what the profile or the request gets wrong, naming the field', async () => {
    const { pem } = await createCsr('EC P-256');
    const cases: [Record<string, unknown>, number, string, ApiErrorCode?][] = [
      [{ profile_id: profileA.id, csr: 'not a request', common_name: 'x.example.com' }, 400, 'csr'],
      [{ profile_id: profileA.id, csr: pem }, 400, 'common_name', 'required'],
      [
        { profile_id: profileA.id, csr: pem, common_name: 'x', street_address: 'Main St 1' },
        400,
        'street_address',
      ],
      [{ profile_id: profileB.id, csr: pem, common_name: 'x.example.com' }, 404, 'profile_id', 'notFound'],
      [{ profile_id: 'missing', csr: pem, common_name: 'x.example.com' }, 404, 'profile_id', 'notFound'],
    ];
    for (const [body, status, field, code] of cases) {
      const response = await issue(callers['account admin'], body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const error = await errorOf(response);
      expect(error.field).toBe(field);
      if (code) expect(error.code).toBe(code);
    }
  });

  it('needs manage enrollment once the profile is within reach', async () => {
    const { pem } = await createCsr('EC P-256');
    const body = { profile_id: profileA.id, csr: pem, common_name: 'x.example.com' };
    const expected: Record<MatrixCaller, number> = {
      system: 201,
      partner: 201,
      'account admin': 201,
      'account, all permissions': 201,
      auditor: 403,
      'no user permission': 403,
    };
    for (const caller of MATRIX_CALLERS) {
      expect((await issue(callers[caller], body)).status, caller).toBe(expected[caller]);
    }
  });
});

describe('POST certificate/{id}/revoke', () => {
  it('revokes on the version read, lists the certificate on the CRL, and refuses a second revocation', async () => {
    const certificate = await issued('revoke-me.example.com');
    const path = apiPaths.certificates.revoke(certificate.id);
    // 428 without If-Match, 412 on an older version with the certificate as GET answers it.
    const missing = await revoke(callers.system, certificate.id);
    expect(missing.status).toBe(428);
    expect((await errorOf(missing)).code).toBe('preconditionRequired');
    const stale = await revoke(callers.system, certificate.id, { ifMatch: '"7"' });
    expect(stale.status).toBe(412);
    const body = (await stale.json()) as PreconditionFailedBody;
    expect((body.current as Certificate).status).toBe('issued');
    const bad = await revoke(callers.system, certificate.id, { ifMatch: '"1"', reason: 'certificateHold' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ field: 'reason', code: 'invalidValue' });

    const done = await revoke(callers.system, certificate.id, { ifMatch: '"1"', reason: 'keyCompromise' });
    expect(done.status, path).toBe(204);
    expect(done.headers.get('ETag')).toBe('"2"');
    const read = await call(harness, 'GET', apiPaths.certificates.byId(certificate.id), {
      token: callers.system.token,
    });
    expect(await read.json()).toMatchObject({
      status: 'revoked',
      revocation_reason: 'keyCompromise',
      version: 2,
    });

    const crl = await files.write('issuing.crl.pem', (await ca.crlsPem()).issuing);
    const listed = await tool('openssl', ['crl', '-in', crl, '-noout', '-text']);
    expect(listed.output.toLowerCase()).toContain(certificate.serial_number.replace(/^0+/, ''));

    const again = await revoke(callers.system, certificate.id, { ifMatch: '"2"' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('conflict');
  });

  it('is the revoke-certificate holder’s, within reach', async () => {
    const expected: Record<MatrixCaller, readonly [number, number]> = {
      system: [204, 204],
      partner: [204, 404],
      'account admin': [403, 404],
      'account, all permissions': [204, 404],
      auditor: [403, 404],
      'no user permission': [403, 404],
    };
    for (const caller of MATRIX_CALLERS) {
      const own = await issued(`own-${caller.replaceAll(/\W/g, '')}.example.com`);
      const foreign = await issued(`foreign-${caller.replaceAll(/\W/g, '')}.example.com`, profileB);
      const statuses = [
        (await revoke(callers[caller], own.id, { ifMatch: '"1"' })).status,
        (await revoke(callers[caller], foreign.id, { ifMatch: '"1"' })).status,
      ];
      expect(statuses, caller).toEqual(expected[caller]);
    }
  });
});
