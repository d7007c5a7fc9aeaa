import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import type { Enrollment, EnrollmentCreated, EnrollmentList } from '../../../contract/schemas/enrollments.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { loadServerCatalogs } from '../../../server/i18n/catalog.ts';
import { insertAccount } from '../accounts/helpers.ts';
import { createCsr, insertTestProfile, withCertificateAuthority } from '../ca/helpers.ts';
import { errorOf } from '../errors.ts';
import {
  captureLog,
  dispatcherFor,
  linkIn,
  type Mailbox,
  mailConfig,
  startMailbox,
} from '../mail/helpers.ts';
import { addToAccount, type Caller, call } from '../organizations/requests.ts';
import { insertTestServiceUser } from '../service-users/helpers.ts';
import type { TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';
import { MATRIX_CALLERS, type MatrixCaller, matrixCallers } from '../users/matrix-callers.ts';
import {
  certificateRequest,
  codeOf,
  createEnrollment,
  createEnrollmentTestApp,
  publicCall,
} from './helpers.ts';

/**
 * The administrators' enrollment routes (decision 021): who may read and change which enrollments
 * (another tenant's is 404 on every route), the mail with the link, resend, cancel, seats, and what
 * deleting the person does to their enrollments.
 */

type Cell = readonly [number, ApiErrorCode?];
const ok = (status: number): Cell => [status];
const notFound: Cell = [404, 'notFound'];
const forbidden: Cell = [403, 'forbidden'];

let harness: TestApp;
let mailbox: Mailbox;
let callers: Record<MatrixCaller, Caller>;
let accountA: string;
let accountB: string;
let profileA: string;
let profileB: string;
let personA: string;
let personB: string;
let serviceUserA: string;
let enrollmentA: EnrollmentCreated & { code: string };
let enrollmentB: EnrollmentCreated & { code: string };

beforeAll(async () => {
  harness = await createEnrollmentTestApp({ config: { trustProxy: true } });
  mailbox = await startMailbox();
  await withCertificateAuthority(harness.deps);
  const made = await matrixCallers(harness);
  callers = made.callers;
  accountA = made.accountA;
  accountB = made.accountB;
  profileA = (await insertTestProfile(harness, accountA)).id;
  profileB = (await insertTestProfile(harness, accountB)).id;
  personA = await insertTestUser(harness, {
    accountId: accountA,
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  serviceUserA = (await insertTestServiceUser(harness, { accountId: accountA, createdBy: callers.system.id }))
    .id;
  personB = await insertTestUser(harness, { accountId: accountB, email: 'alan@example.com' });
  const system = callers.system.token;
  enrollmentA = await createEnrollment(harness, system, {
    account_id: accountA,
    profile_id: profileA,
    seat: { kind: 'user', user_id: personA },
  });
  enrollmentB = await createEnrollment(harness, system, {
    account_id: accountB,
    profile_id: profileB,
    seat: { kind: 'user', user_id: personB },
  });
});
afterAll(async () => {
  await mailbox.close();
  await harness.close();
});

async function expectCell(response: Response, [status, code]: Cell) {
  expect(response.status).toBe(status);
  if (code !== undefined) expect((await errorOf(response)).code).toBe(code);
}

describe('authorization', () => {
  const READ: Record<MatrixCaller, readonly [Cell, Cell]> = {
    system: [ok(200), ok(200)],
    partner: [ok(200), notFound],
    'account admin': [ok(200), notFound],
    'account, all permissions': [ok(200), notFound],
    auditor: [ok(200), notFound],
    'no user permission': [forbidden, notFound],
  };
  // Changes are sent with a stale If-Match: a caller allowed through reach and permission gets 412
  // and nothing changes.
  const CHANGE: Record<MatrixCaller, readonly [Cell, Cell]> = {
    system: [ok(412), ok(412)],
    partner: [ok(412), notFound],
    'account admin': [ok(412), notFound],
    'account, all permissions': [ok(412), notFound],
    auditor: [forbidden, notFound],
    'no user permission': [forbidden, notFound],
  };
  const targets = () => [enrollmentA, enrollmentB] as const;

  for (const caller of MATRIX_CALLERS) {
    it(`${caller}: reads and changes enrollments and seats as the matrix says`, async () => {
      const { token } = callers[caller];
      for (const [index, target] of targets().entries()) {
        const { id, seat } = target.enrollment;
        const read = READ[caller][index] as Cell;
        await expectCell(await call(harness, 'GET', apiPaths.enrollments.byId(id), { token }), read);
        await expectCell(await call(harness, 'GET', apiPaths.enrollments.status(id), { token }), read);
        await expectCell(await call(harness, 'GET', apiPaths.enrollments.seat(seat.id), { token }), read);
        await expectCell(
          await call(harness, 'GET', apiPaths.enrollments.seatEnrollments(seat.id), { token }),
          read,
        );
        const change = CHANGE[caller][index] as Cell;
        const stale = { 'If-Match': '"999"' };
        await expectCell(
          await call(harness, 'POST', apiPaths.enrollments.resend(id), { token, headers: stale }),
          change,
        );
        await expectCell(
          await call(harness, 'DELETE', apiPaths.enrollments.byId(id), { token, headers: stale }),
          change,
        );
        if (read[0] !== 200 || index === 1) {
          const generate = await call(harness, 'POST', apiPaths.enrollments.clientAuthCertificate(id), {
            token,
          });
          expect(generate.status).toBe(caller === 'system' ? 200 : (read[0] as number));
        }
      }
      const list = await call(harness, 'GET', apiPaths.enrollments.list, { token });
      if (READ[caller][0][0] === 200) {
        const ids = ((await list.json()) as EnrollmentList).items.map((item) => item.id);
        expect(ids).toContain(enrollmentA.enrollment.id);
        expect(ids.includes(enrollmentB.enrollment.id)).toBe(caller === 'system');
      } else {
        expect(list.status).toBe(403);
      }
      const createInB = await call(harness, 'POST', apiPaths.enrollments.create, {
        token,
        body: {
          account_id: accountB,
          profile_id: profileB,
          seat: { kind: 'device', name: 'Kiosk', email: 'tech@example.com' },
        },
      });
      expect(createInB.status).toBe(caller === 'system' ? 201 : 404);
    });
  }
});

describe('creating', () => {
  it('mails the link to the person, answers it once, and keeps only its hash', async () => {
    const admin = callers['account admin'].token;
    const created = await createEnrollment(harness, admin, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'user', user_id: personA },
    });
    expect(created.enrollment_url).toBe(
      `https://console.example.test/account/enrollment/${created.enrollment.id}/${created.code}`,
    );
    expect(created.code).toMatch(/^[A-Z2-7]{26}$/);
    // The person keeps one seat in the account.
    expect(created.enrollment.seat.id).toBe(enrollmentA.enrollment.seat.id);
    expect(created.enrollment.seat).toMatchObject({ kind: 'user', user_id: personA, name: 'Grace Hopper' });
    const stored = await harness.deps.db
      .selectFrom('enrollments')
      .selectAll()
      .where('id', '=', created.enrollment.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.code);

    await harness.deps.db
      .updateTable('mail_outbox')
      .set({ sent_at: new Date() })
      .where('kind', '!=', 'enrollment')
      .execute();
    await harness.deps.db
      .updateTable('mail_outbox')
      .set({ sent_at: new Date() })
      .where('enrollment_id', '!=', created.enrollment.id)
      .execute();
    const mail = dispatcherFor(harness, {
      catalogs: await loadServerCatalogs(),
      config: mailConfig(harness, mailbox.url),
      now: () => new Date(),
      log: captureLog(),
    });
    expect(await mail.drain()).toBe(1);
    const message = mailbox.messages.at(-1);
    expect(JSON.stringify(message?.to)).toContain('grace@example.com');
    expect(message?.subject).toBe('Enroll your certificate');
    expect(linkIn(message?.text ?? '').href).toBe(created.enrollment_url);
    // Once sent, the outbox forgets the link.
    const outbox = await harness.deps.db
      .selectFrom('mail_outbox')
      .select(['link', 'sent_at'])
      .where('enrollment_id', '=', created.enrollment.id)
      .executeTakeFirstOrThrow();
    expect(outbox.link).toBeNull();
    expect(outbox.sent_at).not.toBeNull();
  });

  it('enrolls a device under the name given, with its technician as the recipient', async () => {
    const created = await createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'device', name: ' Lobby kiosk ', email: 'tech@example.com' },
    });
    expect(created.enrollment.seat).toMatchObject({
      kind: 'device',
      user_id: null,
      name: 'Lobby kiosk',
      email: 'tech@example.com',
    });
  });

  it.each([
    [
      'a profile of another account',
      () => ({ profile_id: profileB, seat: { kind: 'user', user_id: personA } }),
      'profile_id',
    ],
    [
      'a person of another account',
      () => ({ profile_id: profileA, seat: { kind: 'user', user_id: personB } }),
      'seat.user_id',
    ],
    [
      'a service user',
      () => ({ profile_id: profileA, seat: { kind: 'user', user_id: serviceUserA } }),
      'seat.user_id',
    ],
    [
      'a device without a name',
      () => ({ profile_id: profileA, seat: { kind: 'device', name: ' ', email: 'tech@example.com' } }),
      'seat.name',
    ],
    ['an unknown seat kind', () => ({ profile_id: profileA, seat: { kind: 'robot' } }), 'seat.kind'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const response = await call(harness, 'POST', apiPaths.enrollments.create, {
      token: callers['account admin'].token,
      body: { account_id: accountA, ...body() },
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe(field);
  });
});

describe('the list', () => {
  it('filters by status, seat, person and search, and sorts', async () => {
    const token = callers['account admin'].token;
    const query = (params: string) =>
      call(harness, 'GET', `${apiPaths.enrollments.list}?${params}`, { token }).then(
        async (response) => (await response.json()) as EnrollmentList,
      );
    const bySeat = await query(`seat_id=${enrollmentA.enrollment.seat.id}&sort=created_at:asc`);
    expect(bySeat.total).toBe(bySeat.items.length);
    expect(bySeat.items.every((item) => item.seat.id === enrollmentA.enrollment.seat.id)).toBe(true);
    expect(bySeat.items.map((item) => item.created_at)).toEqual(
      bySeat.items.map((item) => item.created_at).sort(),
    );
    const byPerson = await query(`user_id=${personA}`);
    expect(byPerson.items.map((item) => item.id)).toContain(enrollmentA.enrollment.id);
    expect(byPerson.items.every((item) => item.seat.user_id === personA)).toBe(true);
    const kiosk = await query('search=lobby');
    expect(kiosk.items.map((item) => item.seat.name)).toEqual(['Lobby kiosk']);
    const cancelled = await query('status=cancelled');
    expect(cancelled.items.every((item) => item.status === 'cancelled')).toBe(true);
    const invalid = await call(harness, 'GET', `${apiPaths.enrollments.list}?status=lost`, { token });
    expect(invalid.status).toBe(400);
    expect((await errorOf(invalid)).field).toBe('status');
  });
});

describe('resend and cancel', () => {
  async function fresh(
    seat: { kind: 'user'; user_id: string } | { kind: 'device'; name: string; email: string },
  ) {
    return createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat,
    });
  }

  it('resend kills the old code and forgets the wrong ones', async () => {
    const { enrollment, code } = await fresh({ kind: 'user', user_id: personA });
    await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, 'WRONG'), {
      address: '192.0.2.80',
    });
    const response = await call(harness, 'POST', apiPaths.enrollments.resend(enrollment.id), {
      token: callers['account admin'].token,
    });
    expect(response.status).toBe(200);
    const resent = (await response.json()) as EnrollmentCreated;
    expect(resent.enrollment.failed_attempts).toBe(0);
    expect(resent.enrollment.version).toBe(enrollment.version + 1);
    expect((await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code))).status).toBe(
      404,
    );
    expect(
      (
        await publicCall(
          harness,
          'GET',
          apiPaths.enrollments.byCode(enrollment.id, codeOf(resent.enrollment_url)),
        )
      ).status,
    ).toBe(200);
    // One mail waits: the first one's link is dead and went with its code.
    const waiting = await harness.deps.db
      .selectFrom('mail_outbox')
      .select('link')
      .where('enrollment_id', '=', enrollment.id)
      .execute();
    expect(waiting.map((row) => row.link)).toEqual([resent.enrollment_url]);
  });

  it('cancel stops a pending link; on an issued one it revokes the certificate', async () => {
    const token = callers['account admin'].token;
    const pending = await fresh({ kind: 'user', user_id: personA });
    expect(
      (await call(harness, 'DELETE', apiPaths.enrollments.byId(pending.enrollment.id), { token })).status,
    ).toBe(204);
    expect(
      (await publicCall(harness, 'GET', apiPaths.enrollments.byCode(pending.enrollment.id, pending.code)))
        .status,
    ).toBe(409);
    expect(
      (await call(harness, 'DELETE', apiPaths.enrollments.byId(pending.enrollment.id), { token })).status,
    ).toBe(409);
    expect(
      (await call(harness, 'POST', apiPaths.enrollments.resend(pending.enrollment.id), { token })).status,
    ).toBe(409);

    for (const [seat, reason] of [
      [{ kind: 'user', user_id: personA }, 'affiliationChanged'],
      [{ kind: 'device', name: 'Door reader', email: 'tech@example.com' }, 'cessationOfOperation'],
    ] as const) {
      const issued = await fresh(seat);
      const answer = await publicCall(
        harness,
        'POST',
        apiPaths.enrollments.certificate(issued.enrollment.id, issued.code),
        {
          body: certificateRequest((await createCsr()).pem),
        },
      );
      expect(answer.status).toBe(201);
      const { certificate_id } = (await answer.json()) as { certificate_id: string };
      expect(
        (await call(harness, 'DELETE', apiPaths.enrollments.byId(issued.enrollment.id), { token })).status,
      ).toBe(204);
      const certificate = await harness.deps.db
        .selectFrom('certificates')
        .select(['revoked_at', 'revocation_reason'])
        .where('id', '=', certificate_id)
        .executeTakeFirstOrThrow();
      expect(certificate.revocation_reason).toBe(reason);
      const read = (await (
        await call(harness, 'GET', apiPaths.enrollments.byId(issued.enrollment.id), { token })
      ).json()) as Enrollment;
      expect(read.status).toBe('cancelled');
    }
  });

  it('deleting the person cancels their pending enrollments and revokes what they were issued', async () => {
    const token = callers['account admin'].token;
    const person = await insertTestUser(harness, { accountId: accountA, email: 'leaving@example.com' });
    const pending = await fresh({ kind: 'user', user_id: person });
    const issued = await fresh({ kind: 'user', user_id: person });
    const answer = await publicCall(
      harness,
      'POST',
      apiPaths.enrollments.certificate(issued.enrollment.id, issued.code),
      {
        body: certificateRequest((await createCsr()).pem),
      },
    );
    const { certificate_id } = (await answer.json()) as { certificate_id: string };
    expect((await call(harness, 'DELETE', apiPaths.users.byId(person), { token })).status).toBe(204);

    const read = async (id: string) =>
      (await (await call(harness, 'GET', apiPaths.enrollments.byId(id), { token })).json()) as Enrollment;
    expect((await read(pending.enrollment.id)).status).toBe('cancelled');
    // The seat stays, without its person, as the history of the enrollments.
    expect((await read(pending.enrollment.id)).seat).toMatchObject({
      user_id: null,
      email: 'leaving@example.com',
    });
    expect((await read(issued.enrollment.id)).status).toBe('issued');
    const certificate = await harness.deps.db
      .selectFrom('certificates')
      .select('revocation_reason')
      .where('id', '=', certificate_id)
      .executeTakeFirstOrThrow();
    expect(certificate.revocation_reason).toBe('affiliationChanged');
    expect(
      await harness.deps.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('enrollment_id', '=', pending.enrollment.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('deleting an account', () => {
  it('cancels the pending enrollments its people have in other accounts', async () => {
    const leaving = await insertAccount(harness, { name: 'Leaving' });
    const member = await insertTestUser(harness, { accountId: leaving, email: 'member@example.com' });
    await addToAccount(harness, member, accountA);
    const { enrollment } = await createEnrollment(harness, callers.system.token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'user', user_id: member },
    });
    const deleted = await call(harness, 'DELETE', `${apiPaths.tenants.list}?ids=${leaving}`, {
      token: callers.system.token,
    });
    expect(deleted.status).toBe(204);
    const read = await call(harness, 'GET', apiPaths.enrollments.byId(enrollment.id), {
      token: callers.system.token,
    });
    expect(((await read.json()) as Enrollment).status).toBe('cancelled');
  });
});

describe('client authentication for an enrollment (Q-61, decision 033)', () => {
  it('goes to the enrollee through their link: the administrator asks and receives neither certificate nor key', async () => {
    const { enrollment, code } = await createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'user', user_id: personA },
    });
    const ask = () =>
      call(harness, 'POST', apiPaths.enrollments.clientAuthCertificate(enrollment.id), {
        token: callers['account admin'].token,
      });
    const asked = await ask();
    expect(asked.status).toBe(200);
    const text = await asked.text();
    expect(text).not.toMatch(/BEGIN|certificate"|chain/);
    expect((JSON.parse(text) as Enrollment).client_auth).toMatchObject({
      status: 'requested',
      client_auth_certificate_id: null,
    });
    const held = () =>
      harness.deps.db
        .selectFrom('client_auth_certificates')
        .select(['id', 'user_id', 'created_by'])
        .where('user_id', '=', personA)
        .execute();
    const before = await held();
    // Asking again changes nothing and records nothing.
    const events = () =>
      harness.deps.db
        .selectFrom('audit_events')
        .select('action')
        .where('resource_id', '=', enrollment.id)
        .execute();
    const eventsAsked = (await events()).length;
    expect((await ask()).status).toBe(200);
    expect(await events()).toHaveLength(eventsAsked);

    // The enrollee sees what was asked, in whose name, and sends the CSR of a key made where they are.
    const offerPath = apiPaths.enrollments.publicClientAuthCertificate(enrollment.id, code);
    const offer = await publicCall(harness, 'GET', offerPath);
    expect(offer.status).toBe(200);
    expect(await offer.json()).toMatchObject({ status: 'requested', account_name: expect.any(String) });
    const { pem, keys } = await createCsr('RSA 2048', 'CN=chosen by the browser');
    const made = await publicCall(harness, 'POST', offerPath, { body: { csr: pem } });
    expect(made.status).toBe(201);
    const issued = (await made.json()) as { certificate: string; chain: string[]; serial_number: string };
    expect(JSON.stringify(issued)).not.toContain('PRIVATE KEY');
    expect(issued.chain).toHaveLength(2);
    const certificate = new x509.X509Certificate(issued.certificate);
    const exported = await certificate.publicKey.export();
    expect(Buffer.from(await crypto.subtle.exportKey('spki', exported))).toEqual(
      Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey)),
    );
    const after = await held();
    expect(after).toHaveLength(before.length + 1);
    const registered = after.find((row) => !before.some((old) => old.id === row.id));
    // The person's own certificate, registered by the person through the link.
    expect(registered).toMatchObject({ user_id: personA, created_by: personA });
    const read = await call(harness, 'GET', apiPaths.enrollments.byId(enrollment.id), {
      token: callers['account admin'].token,
    });
    const afterMade = (await read.json()) as Enrollment;
    expect(afterMade.client_auth).toMatchObject({
      status: 'issued',
      client_auth_certificate_id: registered?.id,
    });
    expect((await publicCall(harness, 'POST', offerPath, { body: { csr: pem } })).status).toBe(409);
    expect((await ask()).status).toBe(409);

    // Cancelling the enrollment revokes what its link made, the client certificate included.
    const version = afterMade.version;
    const cancelled = await call(harness, 'DELETE', apiPaths.enrollments.byId(enrollment.id), {
      token: callers['account admin'].token,
      headers: { 'If-Match': `"${version}"` },
    });
    expect(cancelled.status).toBe(204);
    const revoked = await harness.deps.db
      .selectFrom('certificates')
      .select('revoked_at')
      .where('serial_number', '=', issued.serial_number)
      .executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
  });

  it('mails a used link a new one of its own, which makes the client certificate within its lifetime only', async () => {
    const { enrollment, code } = await createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'user', user_id: personA },
    });
    const issued = await publicCall(harness, 'POST', apiPaths.enrollments.certificate(enrollment.id, code), {
      body: certificateRequest((await createCsr()).pem),
    });
    expect(issued.status).toBe(201);
    expect((await publicCall(harness, 'PUT', apiPaths.enrollments.redeem(enrollment.id, code))).status).toBe(
      204,
    );

    const clientAuthMail = () =>
      harness.deps.db
        .selectFrom('mail_outbox')
        .select(['link', 'to_address'])
        .where('enrollment_id', '=', enrollment.id)
        .where('kind', '=', 'enrollment_client_auth')
        .orderBy('created_at')
        .execute();
    const offerStatus = async (linkCode: string) =>
      (
        await publicCall(
          harness,
          'GET',
          apiPaths.enrollments.publicClientAuthCertificate(enrollment.id, linkCode),
        )
      ).status;
    const linkExpiresAt = (at: Date) =>
      harness.deps.db
        .updateTable('enrollments')
        .set({ code_expires_at: at })
        .where('id', '=', enrollment.id)
        .execute();
    const ask = () =>
      call(harness, 'POST', apiPaths.enrollments.clientAuthCertificate(enrollment.id), {
        token: callers['account admin'].token,
      });
    expect((await ask()).status).toBe(200);
    const [mail] = await clientAuthMail();
    expect(mail?.to_address).toBe('grace@example.com');
    const first = codeOf(mail?.link ?? '');
    expect(first).not.toBe(code);
    // The used code is replaced: it opens nothing more, and the new one opens the offer only.
    expect(await offerStatus(code)).toBe(404);
    const reopened = await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, first));
    expect([reopened.status, (await errorOf(reopened)).code]).toEqual([409, 'enrollmentUsed']);
    expect(await offerStatus(first)).toBe(200);

    // Asking again sends another link, for a mail lost or thrown away; the one before stops working.
    expect((await ask()).status).toBe(200);
    const mails = await clientAuthMail();
    const second = codeOf(mails.at(-1)?.link ?? '');
    expect(mails).toHaveLength(1);
    expect(await offerStatus(first)).toBe(404);

    // Past the link's lifetime it makes nothing, although the enrollment's certificate is still picked up.
    const offerPath = apiPaths.enrollments.publicClientAuthCertificate(enrollment.id, second);
    await linkExpiresAt(new Date(Date.now() - 1000));
    expect((await publicCall(harness, 'GET', offerPath)).status).toBe(410);
    const { pem } = await createCsr('RSA 2048');
    expect((await publicCall(harness, 'POST', offerPath, { body: { csr: pem } })).status).toBe(410);
    expect(
      (await publicCall(harness, 'GET', apiPaths.enrollments.certificate(enrollment.id, second))).status,
    ).toBe(200);

    await linkExpiresAt(new Date(Date.now() + 60_000));
    expect((await publicCall(harness, 'POST', offerPath, { body: { csr: pem } })).status).toBe(201);
  });

  it('offers the enrollee nothing that was not asked for, and judges the code as every public call', async () => {
    const { enrollment, code } = await createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'user', user_id: personA },
    });
    const path = apiPaths.enrollments.publicClientAuthCertificate(enrollment.id, code);
    expect((await publicCall(harness, 'GET', path)).status).toBe(409);
    const { pem } = await createCsr();
    expect((await publicCall(harness, 'POST', path, { body: { csr: pem } })).status).toBe(409);
    const wrong = apiPaths.enrollments.publicClientAuthCertificate(enrollment.id, 'A'.repeat(26));
    expect((await publicCall(harness, 'POST', wrong, { body: { csr: pem } })).status).toBe(404);
  });

  it('answers a device enrollment 409', async () => {
    const device = await createEnrollment(harness, callers['account admin'].token, {
      account_id: accountA,
      profile_id: profileA,
      seat: { kind: 'device', name: 'Printer', email: 'tech@example.com' },
    });
    const response = await call(
      harness,
      'POST',
      apiPaths.enrollments.clientAuthCertificate(device.enrollment.id),
      {
        token: callers['account admin'].token,
        body: { csr: (await createCsr()).pem },
      },
    );
    expect(response.status).toBe(409);
  });
});
