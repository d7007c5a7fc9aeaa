import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import {
  ENROLLMENT_CODE_TTL_DAYS,
  type Enrollment,
  type EnrollmentCertificate,
  type PublicEnrollment,
} from '../../../contract/schemas/enrollments.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { CODE_ADDRESS_POLICY, CODE_PAIR_POLICY } from '../../../server/enrollments/code-throttle.ts';
import { ADDRESS_POLICY } from '../../../server/identity/throttle.ts';
import { createCsr, insertTestProfile, TEST_POLICY, withCertificateAuthority } from '../ca/helpers.ts';
import { errorOf } from '../errors.ts';
import { blockSignInAddress, signIn } from '../identity/requests.ts';
import { call } from '../organizations/requests.ts';
import type { TestApp, TestUser } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';
import {
  certificateRequest,
  codeOf,
  createEnrollment,
  createEnrollmentTestApp,
  publicCall,
} from './helpers.ts';

/**
 * The enrollee's calls (overview §4, decision 021): open the link, request the certificate with a
 * real CSR, redeem; and what stops a guesser, a second issue and an expired link.
 */

let harness: TestApp;
let token: string;
let admin: TestUser;
let accountId: string;
let profileId: string;
let personId: string;
let clock = Date.now();
let rootPem: string;
let issuingPem: string;

beforeAll(async () => {
  harness = await createEnrollmentTestApp({ now: () => new Date(clock), config: { trustProxy: true } });
  const ca = await withCertificateAuthority(harness.deps);
  rootPem = ca.rootPem;
  issuingPem = ca.issuingPem;
  admin = await harness.createUser({ accessScope: 'account' });
  accountId = admin.accountId;
  token = (await signIn(harness, admin)).accessToken;
  profileId = (
    await insertTestProfile(harness, accountId, {
      policy: { ...TEST_POLICY, key_types: { rsa: [], ec: ['P-256'] } },
    })
  ).id;
  personId = await insertTestUser(harness, {
    accountId,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
});
afterAll(() => harness.close());

function enroll() {
  return createEnrollment(harness, token, {
    account_id: accountId,
    profile_id: profileId,
    seat: { kind: 'user', user_id: personId },
  });
}

async function readEnrollment(id: string): Promise<Enrollment> {
  const response = await call(harness, 'GET', apiPaths.enrollments.byId(id), { token });
  return (await response.json()) as Enrollment;
}

describe('the enrollee', () => {
  it('opens the link, gets a certificate for a key of their own, and redeems the enrollment once', async () => {
    const { enrollment, code } = await enroll();
    const opened = await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code));
    expect(opened.status).toBe(200);
    const page = (await opened.json()) as PublicEnrollment;
    expect(page).toMatchObject({
      id: enrollment.id,
      status: 'pending',
      seat_kind: 'user',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      key_types: ['ECDSA-P256'],
    });
    expect(page.subject_rules.common_name).toBe('required');

    const { pem } = await createCsr('EC P-256', 'CN=ignored');
    const issued = await publicCall(harness, 'POST', apiPaths.enrollments.certificate(enrollment.id, code), {
      body: certificateRequest(pem, { emails: ['ada@example.com'] }),
    });
    expect(issued.status).toBe(201);
    const answer = (await issued.json()) as EnrollmentCertificate;
    expect(answer.chain).toEqual([issuingPem, rootPem]);
    const certificate = new x509.X509Certificate(answer.x509_cert);
    expect(certificate.subject).toBe('CN=Ada Lovelace');
    const issuer = new x509.X509Certificate(issuingPem);
    expect(await certificate.verify({ publicKey: issuer.publicKey, signatureOnly: true })).toBe(true);
    expect(
      await issuer.verify({ publicKey: new x509.X509Certificate(rootPem).publicKey, signatureOnly: true }),
    ).toBe(true);

    const stored = await readEnrollment(enrollment.id);
    expect(stored).toMatchObject({
      status: 'issued',
      certificate_id: answer.certificate_id,
      enrollment_method: 'DTA',
      keystore_type: 'DTM_SOFTWARE',
    });
    const row = await harness.deps.db
      .selectFrom('certificates')
      .select(['source', 'owner_user_id', 'profile_id'])
      .where('id', '=', answer.certificate_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ source: 'enrollment', owner_user_id: personId, profile_id: profileId });

    const redeem = apiPaths.enrollments.redeem(enrollment.id, code);
    expect((await publicCall(harness, 'PUT', redeem)).status).toBe(204);
    expect((await readEnrollment(enrollment.id)).status).toBe('redeemed');
    // Used: the code opens nothing more, and the answers say so.
    const again = await publicCall(harness, 'PUT', redeem);
    expect([again.status, (await errorOf(again)).code]).toEqual([409, 'enrollmentUsed']);
    const reopened = await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code));
    expect([reopened.status, (await errorOf(reopened)).code]).toEqual([409, 'enrollmentUsed']);

    // Each step is in the trail, in the enrollee's name and without the code.
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'actor_name', 'details'])
      .where('resource_id', '=', enrollment.id)
      .orderBy('seq')
      .execute();
    expect(events.map((event) => event.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
    expect(events[2]).toMatchObject({ actor_id: personId, actor_name: 'Ada Lovelace' });
    expect(JSON.stringify(events)).not.toContain(code);
  });

  it('issues one certificate per enrollment, also for two requests at once', async () => {
    const { enrollment, code } = await enroll();
    const path = apiPaths.enrollments.certificate(enrollment.id, code);
    const [first, second] = await Promise.all([
      createCsr('EC P-256').then(({ pem }) =>
        publicCall(harness, 'POST', path, { body: certificateRequest(pem) }),
      ),
      createCsr('EC P-256').then(({ pem }) =>
        publicCall(harness, 'POST', path, { body: certificateRequest(pem) }),
      ),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const again = await publicCall(harness, 'POST', path, {
      body: certificateRequest((await createCsr('EC P-256')).pem),
    });
    expect(again.status).toBe(409);
    const issued = await harness.deps.db
      .selectFrom('certificates')
      .select('id')
      .where('source', '=', 'enrollment')
      .where('id', '=', (await readEnrollment(enrollment.id)).certificate_id ?? '')
      .execute();
    expect(issued).toHaveLength(1);
  });

  it('refuses a key the profile does not accept, naming the csr, and leaves the enrollment pending', async () => {
    const { enrollment, code } = await enroll();
    const response = await publicCall(
      harness,
      'POST',
      apiPaths.enrollments.certificate(enrollment.id, code),
      {
        body: certificateRequest((await createCsr('RSA 2048')).pem),
      },
    );
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'csr', code: 'keyTypeNotAllowed' });
    expect((await readEnrollment(enrollment.id)).status).toBe('pending');
  });

  it.each([
    ['no JSON at all', '{"csr": '],
    ['a number for the CSR', JSON.stringify({ ...certificateRequest('x'), csr: 42 })],
    [
      'an unknown enrollment method',
      JSON.stringify(certificateRequest('x', { enrollment_method: 'XX' as 'DTA' })),
    ],
    [
      'a CSR that is not one',
      JSON.stringify(
        certificateRequest('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----'),
      ),
    ],
  ])('answers a malformed request (%s) with 400, never a 5xx', async (_label, body) => {
    const { enrollment, code } = await enroll();
    const response = await harness.app.request(apiPaths.enrollments.certificate(enrollment.id, code), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.10' },
      body,
    });
    expect(response.status).toBe(400);
    expect((await readEnrollment(enrollment.id)).status).toBe('pending');
  });

  it('answers an expired link 410 until an administrator sends a new one', async () => {
    const { enrollment, code } = await enroll();
    clock += ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
    try {
      const expired = await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code));
      expect([expired.status, (await errorOf(expired)).code]).toEqual([410, 'enrollmentExpired']);
      const post = await publicCall(harness, 'POST', apiPaths.enrollments.certificate(enrollment.id, code), {
        body: certificateRequest((await createCsr('EC P-256')).pem),
      });
      expect(post.status).toBe(410);
      // A week on, the administrator signs in again: the enrollment reads expired and is sent again.
      token = (await signIn(harness, admin)).accessToken;
      expect((await readEnrollment(enrollment.id)).status).toBe('expired');
      const resent = await call(harness, 'POST', apiPaths.enrollments.resend(enrollment.id), { token });
      expect(resent.status).toBe(200);
      const { enrollment_url } = (await resent.json()) as { enrollment_url: string };
      const opened = await publicCall(
        harness,
        'GET',
        apiPaths.enrollments.byCode(enrollment.id, codeOf(enrollment_url)),
      );
      expect(opened.status).toBe(200);
    } finally {
      clock -= ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
      token = (await signIn(harness, admin)).accessToken;
    }
  });
});

describe('installing later', () => {
  it('answers the certificate of an issued enrollment again, and of a redeemed one, to install it', async () => {
    const { enrollment, code } = await enroll();
    const path = apiPaths.enrollments.certificate(enrollment.id, code);
    // Pending: nothing issued yet.
    expect((await publicCall(harness, 'GET', path)).status).toBe(409);
    const issued = await publicCall(harness, 'POST', path, {
      body: certificateRequest((await createCsr('EC P-256')).pem),
    });
    const first = (await issued.json()) as EnrollmentCertificate;

    // A week on, the code of an issued enrollment still fetches its certificate: the import broke.
    clock += ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
    try {
      const again = await publicCall(harness, 'GET', path);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(first);
    } finally {
      clock -= ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
    }
    expect((await publicCall(harness, 'PUT', apiPaths.enrollments.redeem(enrollment.id, code))).status).toBe(
      204,
    );
    const redeemed = await publicCall(harness, 'GET', path);
    expect(redeemed.status).toBe(200);
    expect(((await redeemed.json()) as EnrollmentCertificate).serial_number).toBe(first.serial_number);
  });

  it('answers the chain also as a certs-only PKCS#7 and names the method, for the desktop client', async () => {
    const { enrollment, code } = await enroll();
    const path = apiPaths.enrollments.certificate(enrollment.id, code);
    const issued = await publicCall(harness, 'POST', path, {
      body: certificateRequest((await createCsr('EC P-256')).pem, {
        enrollment_method: 'DDC',
        keystore_type: 'HARDWARE_TOKEN',
      }),
    });
    expect(issued.status).toBe(201);
    const answer = (await (await publicCall(harness, 'GET', path)).json()) as EnrollmentCertificate;
    expect(answer).toMatchObject({ enrollment_method: 'DDC', keystore_type: 'HARDWARE_TOKEN' });
    expect(answer.profile_name).toBe(enrollment.profile_name);
    expect(answer).toEqual({ ...((await issued.json()) as EnrollmentCertificate), enrollment_method: 'DDC' });
    const bundle = [...new x509.X509Certificates(new Uint8Array(Buffer.from(answer.pkcs7, 'base64')))];
    // The certificate, then the issuing CA and the root: the PEM chain's certificates, in its order.
    expect(bundle.map((certificate) => certificate.toString('pem'))).toEqual(
      [answer.x509_cert, ...answer.chain].map((pem) => new x509.X509Certificate(pem).toString('pem')),
    );
  });

  it('refuses a cancelled enrollment 409, an expired one 410 and a wrong code 404, counted', async () => {
    const cancelled = await enroll();
    await publicCall(
      harness,
      'POST',
      apiPaths.enrollments.certificate(cancelled.enrollment.id, cancelled.code),
      {
        body: certificateRequest((await createCsr('EC P-256')).pem),
      },
    );
    const cancel = await call(harness, 'DELETE', apiPaths.enrollments.byId(cancelled.enrollment.id), {
      token,
    });
    expect(cancel.status).toBe(204);
    const refused = await publicCall(
      harness,
      'GET',
      apiPaths.enrollments.certificate(cancelled.enrollment.id, cancelled.code),
    );
    expect([refused.status, (await errorOf(refused)).code]).toEqual([409, 'enrollmentCancelled']);

    const pending = await enroll();
    const wrong = await publicCall(
      harness,
      'GET',
      apiPaths.enrollments.certificate(pending.enrollment.id, 'A'.repeat(26)),
      { address: '198.51.100.30' },
    );
    expect(wrong.status).toBe(404);
    const row = await harness.deps.db
      .selectFrom('enrollments')
      .select('failed_attempts')
      .where('id', '=', pending.enrollment.id)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(1);

    clock += ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
    try {
      expect(
        (
          await publicCall(
            harness,
            'GET',
            apiPaths.enrollments.certificate(pending.enrollment.id, pending.code),
          )
        ).status,
      ).toBe(410);
    } finally {
      clock -= ENROLLMENT_CODE_TTL_DAYS * 86_400_000 + 1000;
    }
  });
});

describe('a guesser', () => {
  const byCode = (id: string, code: string, address: string) =>
    publicCall(harness, 'GET', apiPaths.enrollments.byCode(id, code), { address });

  it('gets 404 for a wrong code as for an unknown enrollment, and never locks the enrollee out', async () => {
    const { enrollment, code } = await enroll();
    const unknown = await byCode(crypto.randomUUID(), code, '198.51.100.99');
    expect(unknown.status).toBe(404);
    const unknownError = await errorOf(unknown);
    const wrongCode = 'A'.repeat(26);
    const wrong = await byCode(enrollment.id, wrongCode, '198.51.100.7');
    expect(wrong.status).toBe(404);
    expect(await errorOf(wrong)).toEqual(unknownError);
    // Twenty wrong codes for the enrollment, from ten addresses: each is checked and counted.
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await byCode(
        enrollment.id,
        `${wrongCode}${attempt}`,
        `198.51.100.${110 + (attempt % 10)}`,
      );
      expect(response.status).toBe(404);
    }
    expect((await readEnrollment(enrollment.id)).failed_attempts).toBe(21);
    // The enrollee's link still opens, from any address.
    expect((await byCode(enrollment.id, code, '192.0.2.44')).status).toBe(200);
  });

  it('tells a used link from a blocked one however many wrong codes were sent for it', async () => {
    const { enrollment, code } = await enroll();
    const issued = await publicCall(harness, 'POST', apiPaths.enrollments.certificate(enrollment.id, code), {
      body: certificateRequest((await createCsr('EC P-256')).pem),
      address: '192.0.2.60',
    });
    expect(issued.status).toBe(201);
    for (let attempt = 0; attempt < 6; attempt++) {
      await byCode(enrollment.id, `WRONG${attempt}`, `198.51.100.${130 + attempt}`);
    }
    const used = await byCode(enrollment.id, code, '192.0.2.60');
    expect(used.status).toBe(409);
    expect((await errorOf(used)).code).toBe('enrollmentUsed');
  });

  it('backs off one address guessing one enrollment after a few typos, without touching another address', async () => {
    const { enrollment, code } = await enroll();
    const address = '198.51.100.150';
    for (let attempt = 0; attempt < CODE_PAIR_POLICY.maxFailures; attempt++) {
      expect((await byCode(enrollment.id, `WRONG${attempt}`, address)).status).toBe(404);
    }
    const blocked = await byCode(enrollment.id, code, address);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await byCode(enrollment.id, code, '198.51.100.151')).status).toBe(200);
  });

  it('restricts an address past its ceiling: one checked guess per enrollment, while a right code from it still opens', async () => {
    const address = '198.51.100.200';
    const target = await enroll();
    // Wrong codes over made-up enrollments until the address reaches its ceiling.
    for (let attempt = 0; attempt < CODE_ADDRESS_POLICY.maxFailures; attempt++) {
      expect((await byCode(crypto.randomUUID(), 'WRONG', address)).status).toBe(404);
    }
    // Restricted: a wrong code answers 429 for a real enrollment as for an unknown one …
    const onReal = await byCode(target.enrollment.id, 'WRONG', address);
    const onUnknown = await byCode(crypto.randomUUID(), 'WRONG', address);
    expect([onReal.status, onUnknown.status]).toEqual([429, 429]);
    expect(onReal.headers.get('Retry-After')).toBe(onUnknown.headers.get('Retry-After'));
    expect(await errorOf(onReal)).toEqual(await errorOf(onUnknown));
    // … and the pair is then refused unchecked: the enrollment counted the one guess only.
    expect((await byCode(target.enrollment.id, 'WRONG2', address)).status).toBe(429);
    expect((await readEnrollment(target.enrollment.id)).failed_attempts).toBe(1);
    // A colleague behind the same address opens their own link.
    const colleague = await enroll();
    expect((await byCode(colleague.enrollment.id, colleague.code, address)).status).toBe(200);
  });

  it('does not count wrong codes against sign-in, nor failed sign-ins against the codes', async () => {
    const address = '198.51.100.210';
    for (let attempt = 0; attempt < ADDRESS_POLICY.maxFailures; attempt++) {
      await byCode(crypto.randomUUID(), 'WRONG', address);
    }
    // The address has sent 50 wrong codes; its user's right password signs in.
    const user = await harness.createUser({ accessScope: 'account' });
    await signIn(harness, user, { headers: { 'X-Forwarded-For': address } });

    const office = '198.51.100.211';
    await blockSignInAddress(harness, { headers: { 'X-Forwarded-For': office } });
    // Sign-in is blocked at the office; the enrollee's link there is not.
    const { enrollment, code } = await enroll();
    expect((await byCode(enrollment.id, code, office)).status).toBe(200);
  });
});

describe('the log', () => {
  it('names the route, never the code, when a public call fails on the server', async () => {
    // A platform without its CA yet: issuing fails on the server's side.
    const bare = await createEnrollmentTestApp({ config: { trustProxy: true } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const caller = await bare.createUser({ accessScope: 'account' });
      const profile = await insertTestProfile(bare, caller.accountId);
      const { enrollment, code } = await createEnrollment(bare, (await signIn(bare, caller)).accessToken, {
        account_id: caller.accountId,
        profile_id: profile.id,
        seat: { kind: 'device', name: 'Kiosk', email: 'tech@example.com' },
      });
      const response = await publicCall(bare, 'POST', apiPaths.enrollments.certificate(enrollment.id, code), {
        body: certificateRequest((await createCsr('EC P-256')).pem),
      });
      expect(response.status).toBe(500);
      const logged = errors.mock.calls.map((parts) => parts.map(String).join(' ')).join('\n');
      expect(logged).toContain('/enrollment/:id/:code/certificate failed');
      expect(logged).not.toContain(code);
    } finally {
      errors.mockRestore();
      await bare.close();
    }
  });
});
