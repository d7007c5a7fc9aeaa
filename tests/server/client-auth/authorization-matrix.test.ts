import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import { insertClientAuthCertificate } from '../../../server/client-auth/repository.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { insertTestServiceUser } from '../service-users/helpers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import { selfSigned } from './helpers.ts';

/**
 * The client-authentication certificate rows of the authorization matrix (decision 019): every route
 * called by each kind of caller (tests/server/users/matrix-callers.ts) on each kind of user, with the
 * exact status and code. People as in the API-token matrix: own is the caller itself; managed a user
 * of account A (under partner P) holding nothing; stronger a user of A holding every permission;
 * foreign a user of an account under another partner Q. Service users as in their own matrix. The
 * rules are those of the owner's API tokens, except that an administrator may register a person's
 * certificate (a token is only ever made by its own user).
 */

type Cell = readonly [number, ApiErrorCode?];
const ok = (status: number): Cell => [status];
const notFound: Cell = [404, 'notFound'];
const forbidden: Cell = [403, 'forbidden'];
const exceeds: Cell = [403, 'userExceedsYours'];

let harness: TestApp;
let callers: Record<MatrixCaller, Caller>;
let accountA: string;
let accountB: string;
let strongRoleA: string;

beforeAll(async () => {
  harness = await createTestApp();
  const made = await matrixCallers(harness);
  callers = made.callers;
  accountA = made.accountA;
  accountB = made.accountB;
  strongRoleA = await insertCustomRole(harness, accountA, PERMISSION_NAMES);
});
afterAll(() => harness.close());

/** A certificate of `userId` stored directly, so a cell that changes one has one of its own. */
async function certificateOf(userId: string) {
  const certificate = await selfSigned();
  return insertClientAuthCertificate(
    harness.deps.db,
    {
      userId,
      source: 'uploaded',
      certificateId: null,
      der: certificate.der,
      commonName: 'Matrix',
      notAfter: certificate.x509.notAfter,
      fingerprint: new X509Certificate(certificate.der).fingerprint256,
      createdBy: userId,
    },
    harness.deps.now(),
  );
}

async function upload(caller: Caller, path: string): Promise<Response> {
  const certificate = await selfSigned();
  return call(harness, 'POST', path, { token: caller.token, body: { certificate: certificate.pem } });
}

describe('people: user/{id}/client-auth-certificate', () => {
  const TARGETS = ['own', 'managed', 'stronger', 'foreign'] as const;
  type TargetKind = (typeof TARGETS)[number];
  type Row = readonly [Cell, Cell, Cell, Cell];

  /** A fresh person of the target's kind (own is the caller). */
  async function person(caller: Caller, kind: TargetKind): Promise<string> {
    if (kind === 'own') return caller.id;
    return insertTestUser(harness, {
      accountId: kind === 'foreign' ? accountB : accountA,
      roleIds: kind === 'stronger' ? [strongRoleA] : [],
    });
  }

  const reads: Record<MatrixCaller, Row> = {
    system: [ok(200), ok(200), ok(200), ok(200)],
    partner: [ok(200), ok(200), ok(200), notFound],
    'account admin': [ok(200), ok(200), ok(200), notFound],
    'account, all permissions': [ok(200), ok(200), ok(200), notFound],
    auditor: [ok(200), ok(200), ok(200), notFound],
    'no user permission': [ok(200), forbidden, forbidden, notFound],
  };
  function changes(status: number): Record<MatrixCaller, Row> {
    return {
      system: [ok(status), ok(status), ok(status), ok(status)],
      partner: [ok(status), ok(status), exceeds, notFound],
      'account admin': [ok(status), ok(status), exceeds, notFound],
      'account, all permissions': [ok(status), ok(status), ok(status), notFound],
      auditor: [ok(status), forbidden, forbidden, notFound],
      'no user permission': [ok(status), forbidden, forbidden, notFound],
    };
  }

  const ENDPOINTS: {
    name: string;
    expected: Record<MatrixCaller, Row>;
    request: (caller: Caller, userId: string) => Promise<Response>;
  }[] = [
    {
      name: 'GET user/{id}/client-auth-certificate',
      expected: reads,
      request: (caller, userId) =>
        call(harness, 'GET', apiPaths.users.clientAuthCertificates(userId), { token: caller.token }),
    },
    {
      name: 'POST user/{id}/client-auth-certificate (upload)',
      expected: changes(201),
      request: (caller, userId) => upload(caller, apiPaths.users.clientAuthCertificates(userId)),
    },
    {
      name: 'PUT user/{id}/client-auth-certificate/{certId}/enable',
      expected: changes(204),
      request: async (caller, userId) => {
        const certificate = await certificateOf(userId);
        return call(harness, 'PUT', apiPaths.users.clientAuthCertificateEnable(userId, certificate.id), {
          token: caller.token,
          body: { enabled: false },
          headers: { 'If-Match': `"${certificate.version}"` },
        });
      },
    },
    {
      name: 'POST user/{id}/sendSetupCacBasedLoginEmail',
      expected: changes(204),
      request: async (caller, userId) => {
        // Each cell a first mail, not a resend within the minute (429).
        await harness.deps.db.deleteFrom('mail_outbox').execute();
        return call(harness, 'POST', apiPaths.users.sendSetupCacBasedLoginEmail(userId), {
          token: caller.token,
        });
      },
    },
  ];

  describe.each(ENDPOINTS)('$name', (endpoint) => {
    it.each(MATRIX_CALLERS)('as %s', async (caller) => {
      for (const [index, kind] of TARGETS.entries()) {
        const [status, code] = endpoint.expected[caller][index] ?? [0];
        const response = await endpoint.request(callers[caller], await person(callers[caller], kind));
        expect(`${kind}: ${response.status}`).toBe(`${kind}: ${status}`);
        if (code !== undefined) expect((await errorOf(response)).code).toBe(code);
      }
    });

    it('asks for a credential', async () => {
      const target = await person(callers.system, 'managed');
      const response = await endpoint.request({ ...callers.system, token: '' }, target);
      expect(response.status).toBe(401);
    });
  });
});

describe('service users: service-user/{id}/client-auth-certificate', () => {
  const TARGETS = ['managed', 'stronger', 'foreign'] as const;
  type TargetKind = (typeof TARGETS)[number];
  type Row = readonly [Cell, Cell, Cell];

  async function serviceUser(kind: TargetKind): Promise<string> {
    const { id } = await insertTestServiceUser(harness, {
      accountId: kind === 'foreign' ? accountB : accountA,
      createdBy: callers.system.id,
      roleIds: kind === 'stronger' ? [strongRoleA] : [],
    });
    return id;
  }

  const reads: Record<MatrixCaller, Row> = {
    system: [ok(200), ok(200), ok(200)],
    partner: [ok(200), ok(200), notFound],
    'account admin': [ok(200), ok(200), notFound],
    'account, all permissions': [ok(200), ok(200), notFound],
    auditor: [ok(200), ok(200), notFound],
    'no user permission': [forbidden, forbidden, notFound],
  };
  function changes(status: number): Record<MatrixCaller, Row> {
    return {
      system: [ok(status), ok(status), ok(status)],
      partner: [ok(status), exceeds, notFound],
      'account admin': [ok(status), exceeds, notFound],
      'account, all permissions': [ok(status), ok(status), notFound],
      auditor: [forbidden, forbidden, notFound],
      'no user permission': [forbidden, forbidden, notFound],
    };
  }

  const ENDPOINTS: {
    name: string;
    expected: Record<MatrixCaller, Row>;
    request: (caller: Caller, id: string) => Promise<Response>;
  }[] = [
    {
      name: 'GET service-user/{id}/client-auth-certificate',
      expected: reads,
      request: (caller, id) =>
        call(harness, 'GET', apiPaths.serviceUsers.clientAuthCertificates(id), { token: caller.token }),
    },
    {
      name: 'POST service-user/{id}/client-auth-certificate (upload)',
      expected: changes(201),
      request: (caller, id) => upload(caller, apiPaths.serviceUsers.clientAuthCertificates(id)),
    },
    {
      name: 'PUT service-user/{id}/client-auth-certificate/{certId}/enable',
      expected: changes(204),
      request: async (caller, id) => {
        const certificate = await certificateOf(id);
        return call(harness, 'PUT', apiPaths.serviceUsers.clientAuthCertificateEnable(id, certificate.id), {
          token: caller.token,
          body: { enabled: false },
          headers: { 'If-Match': `"${certificate.version}"` },
        });
      },
    },
  ];

  describe.each(ENDPOINTS)('$name', (endpoint) => {
    it.each(MATRIX_CALLERS)('as %s', async (caller) => {
      for (const [index, kind] of TARGETS.entries()) {
        const [status, code] = endpoint.expected[caller][index] ?? [0];
        const response = await endpoint.request(callers[caller], await serviceUser(kind));
        expect(`${kind}: ${response.status}`).toBe(`${kind}: ${status}`);
        if (code !== undefined) expect((await errorOf(response)).code).toBe(code);
      }
    });
  });

  it('answers 404 for a person on the service-user routes and for a service user on the people routes', async () => {
    const serviceId = await serviceUser('managed');
    const personId = await insertTestUser(harness, { accountId: accountA });
    const system = callers.system.token;
    expect(
      (await call(harness, 'GET', apiPaths.serviceUsers.clientAuthCertificates(personId), { token: system }))
        .status,
    ).toBe(404);
    expect(
      (await call(harness, 'GET', apiPaths.users.clientAuthCertificates(serviceId), { token: system }))
        .status,
    ).toBe(404);
    expect((await upload(callers.system, apiPaths.users.clientAuthCertificates(serviceId))).status).toBe(404);
    const serviceCertificate = await certificateOf(serviceId);
    const crossed = await call(
      harness,
      'PUT',
      apiPaths.users.clientAuthCertificateEnable(serviceId, serviceCertificate.id),
      {
        token: system,
        body: { enabled: false },
        headers: { 'If-Match': '"1"' },
      },
    );
    expect(crossed.status).toBe(404);
  });
});
