import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { policyKeyTypeNames } from '../../contract/certificate-policy.ts';
import { apiPaths, UI_API_V1, UI_API_V2 } from '../../contract/paths.ts';
import { clientAuthGenerateSchema } from '../../contract/schemas/client-auth.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Enrollment,
  type EnrollmentCertificate,
  type EnrollmentCreated,
  type EnrollmentStatus,
  type EnrollmentStatusAnswer,
  enrollmentCertificateRequestSchema,
  enrollmentCodeParamsSchema,
  enrollmentCreateSchema,
  enrollmentIdParamsSchema,
  enrollmentListQuerySchema,
  type PublicClientAuthIssued,
  type PublicClientAuthOffer,
  type PublicEnrollment,
  type Seat,
  seatEnrollmentsQuerySchema,
  seatIdParamsSchema,
} from '../../contract/schemas/enrollments.ts';
import { featureEnabled } from '../account-features/index.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChange, auditChangeBy, requestActor, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { USER_NOT_FOUND } from '../authorization/user-reach.ts';
import { certificatePem, certificatesPkcs7, issueCertificate, revokeCertificates } from '../ca/index.ts';
import { issuerChain } from '../certificates/index.ts';
import {
  assertMayRegister,
  issueClientAuthCertificate,
  PERSON_CERTIFICATE_OWNERS,
} from '../client-auth/index.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField, validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { type EnrollmentMailKind, enrollmentPath } from '../mail/kinds.ts';
import { dropWaitingEnrollmentMail, enqueueEnrollmentMail } from '../mail/outbox.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertEnrollmentAccess } from './access.ts';
import { checkCodeThrottle, clearCodeFailures, recordWrongCode } from './code-throttle.ts';
import { codeMatches, newEnrollmentCode } from './codes.ts';
import {
  certificatesMadeThrough,
  clientAuthOf,
  countWrongCode,
  DEFAULT_SORT,
  effectiveStatus,
  ensureDeviceSeat,
  ensureUserSeat,
  findEnrollment,
  findReachableEnrollment,
  findReachableSeat,
  insertEnrollment,
  listEnrollments,
  type StoredEnrollment,
  toEnrollment,
  updateEnrollment,
} from './repository.ts';
import { revocationReasonFor } from './rules.ts';

const NOT_FOUND = 'Enrollment not found.';

/** 429 for a blocked or restricted code, with when to come back (decision 031). */
function tooManyWrongCodes(c: Context, retryAfterSeconds: number): ApiError {
  c.header('Retry-After', String(retryAfterSeconds));
  return new ApiError(429, 'Too many wrong enrollment codes from this address. Try again later.');
}

/**
 * The refusal of a call the enrollment's status does not allow, with the code the enrollment page
 * tells apart (used, cancelled, expired, not issued yet): 410 for expired, 409 for the rest.
 */
function notAsked(status: EnrollmentStatus, message: string): ApiError {
  if (status === 'expired') {
    return new ApiError(410, 'The enrollment link has expired; ask for a new one.', {
      code: 'enrollmentExpired',
    });
  }
  const code =
    status === 'cancelled'
      ? 'enrollmentCancelled'
      : status === 'pending'
        ? 'enrollmentNotIssued'
        : 'enrollmentUsed';
  return new ApiError(409, message, { code });
}

/** The routes' paths (`apiPaths.enrollments` with Hono's parameters). */
const LIST = `${UI_API_V1}/enrollments`;
const CREATE = `${UI_API_V2}/enrollment`;
const BY_ID = `${UI_API_V2}/enrollment/:id`;
const STATUS = `${BY_ID}/status`;
const RESEND = `${BY_ID}/resend`;
const CLIENT_AUTH_CERTIFICATE = `${UI_API_V1}/enrollment/:id/client-auth-certificate`;
const BY_CODE = `${BY_ID}/:code`;
const CERTIFICATE = `${BY_CODE}/certificate`;
const REDEEM = `${BY_CODE}/redeem`;
const PUBLIC_CLIENT_AUTH_CERTIFICATE = `${BY_CODE}/client-auth-certificate`;
const SEAT = `${UI_API_V2}/seat/:id`;
const SEAT_ENROLLMENTS = `${SEAT}/enrollments`;

function enrollmentKind(deps: AppDeps): ResourceKind<{ id: string }, StoredEnrollment> {
  return {
    label: 'Enrollment',
    resourceType: 'ENROLLMENT',
    find: async (db, principal, { id }, lock) => {
      const row = await findReachableEnrollment(db, principal, id, lock);
      return row && { row, accountId: row.account_id };
    },
    authorize: (principal, _found, access) => assertEnrollmentAccess(principal, access),
    represent: async (_db, _principal, { row }) => toEnrollment(row, deps.now()),
  };
}

/** The link of the mail and of the answer to create and resend, on the configured origin only. */
function enrollmentUrl(deps: AppDeps, id: string, code: string): string {
  return new URL(enrollmentPath(id, code), deps.config.publicUrl).href;
}

/**
 * Who the trail names for the enrollee's calls (decision 021 §4): nobody is signed in, so the seat
 * acts: the person's user id, or the device seat's id, with the seat's name.
 */
function enrolleeActor(seat: Seat, c: Context<AppEnv>, address: string | null): AuditActor {
  return {
    id: seat.user_id ?? seat.id,
    name: seat.name,
    address,
    userAgent: c.req.header('User-Agent') ?? null,
  };
}

/**
 * The person the seat is for: a user of the account (primary or added to it), not a service user
 * (whose certificates are client-authentication ones, decision 019).
 */
async function personOfAccount(trx: Kysely<Database>, accountId: string, userId: string) {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'user_name', 'email'])
    .where('id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('service_users')
            .select('service_users.user_id')
            .whereRef('service_users.user_id', '=', 'users.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.or([
        eb('primary_account_id', '=', accountId),
        eb.exists(
          eb
            .selectFrom('user_accounts')
            .select('user_accounts.user_id')
            .whereRef('user_accounts.user_id', '=', 'users.id')
            .where('user_accounts.account_id', '=', accountId),
        ),
      ]),
    )
    .executeTakeFirst();
  if (!user) throw invalidField('seat.user_id', 'invalidValue');
  if (user.email === '') throw invalidField('seat.user_id', 'required');
  return {
    id: user.id,
    name: `${user.first_name} ${user.last_name}`.trim() || user.user_name,
    email: user.email,
  };
}

/** Certificate enrollment (decision 021): the administrators' routes and the enrollee's public ones. */
/**
 * The issued certificate as the page installs it: PEM with its chain for the trust agent, and the
 * same chain as a certs-only PKCS#7 (base64 DER) for the desktop client, which the enrollment
 * method names, with the keystore type and profile name it installs under (decision 021 §5).
 */
async function certificateAnswer(
  db: Kysely<Database>,
  certificate: { id: string; serial_number: string; issuer_id: string; certificate: Uint8Array },
  enrollment: Pick<EnrollmentCertificate, 'enrollment_method' | 'keystore_type' | 'profile_name'>,
): Promise<EnrollmentCertificate> {
  const chain = await issuerChain(db, certificate.issuer_id);
  return {
    x509_cert: certificatePem(certificate.certificate),
    chain: chain.map(certificatePem),
    pkcs7: Buffer.from(certificatesPkcs7([certificate.certificate, ...chain])).toString('base64'),
    certificate_id: certificate.id,
    serial_number: certificate.serial_number,
    enrollment_method: enrollment.enrollment_method,
    keystore_type: enrollment.keystore_type,
    profile_name: enrollment.profile_name,
  };
}

export function enrollmentRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const enrollments = versionedResource(deps, enrollmentKind(deps));
  const idParams = validateParams(enrollmentIdParamsSchema);
  const codeParams = validateParams(enrollmentCodeParamsSchema);

  /** A reachable enrollment for a change, locked: 404 out of reach, 403 without manage, 412 on If-Match. */
  async function lockedForChange(trx: Kysely<Database>, c: Context<AppEnv>, id: string) {
    return (await enrollments.lockForChange(trx, c, { id }, { precondition: 'honoured' })).row;
  }

  async function readBack(trx: Kysely<Database>, id: string): Promise<Enrollment> {
    const row = await findEnrollment(trx, id, false);
    if (!row) throw new Error('An enrollment just written is gone.');
    return toEnrollment(row, deps.now());
  }

  // Administrators -------------------------------------------------------------------------------

  app.get(LIST, authenticated, validateQuery(enrollmentListQuerySchema), async (c) => {
    const principal = c.var.principal;
    const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
    if (filters.account_id !== undefined && !(await canSeeAccount(db, principal, filters.account_id))) {
      throw new ApiError(404, ACCOUNT_NOT_FOUND);
    }
    assertEnrollmentAccess(principal, 'view');
    return c.json(await listEnrollments(db, principal, filters, page, deps.now()));
  });

  app.post(CREATE, authenticated, validateJson(enrollmentCreateSchema), async (c) => {
    const principal = c.var.principal;
    const body = c.req.valid('json');
    const now = deps.now();
    const answer = await db.transaction().execute(async (trx) => {
      if (!(await canSeeAccount(trx, principal, body.account_id))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
      assertEnrollmentAccess(principal, 'manage');
      const profile = await trx
        .selectFrom('certificate_profiles')
        .select(['id', 'name'])
        .where('id', '=', body.profile_id)
        .where('account_id', '=', body.account_id)
        .executeTakeFirst();
      if (!profile) throw invalidField('profile_id', 'invalidValue');
      const { seat, created } =
        body.seat.kind === 'user'
          ? await ensureUserSeat(
              trx,
              body.account_id,
              await personOfAccount(trx, body.account_id, body.seat.user_id),
              now,
            )
          : await ensureDeviceSeat(
              trx,
              body.account_id,
              { name: body.seat.name, email: body.seat.email },
              now,
            );
      if (created) {
        await auditChange(trx, c, deps, {
          action: 'CREATE',
          resourceType: 'SEAT',
          resourceId: seat.id,
          accountId: body.account_id,
          details: { kind: seat.kind, name: seat.name, user_id: seat.user_id },
        });
      }
      const code = newEnrollmentCode(now);
      const id = await insertEnrollment(
        trx,
        {
          accountId: body.account_id,
          seatId: seat.id,
          profile,
          codeHash: code.hash,
          codeExpiresAt: code.expiresAt,
          createdBy: principal.userId,
        },
        now,
      );
      const url = enrollmentUrl(deps, id, code.code);
      await enqueueEnrollmentMail(trx, {
        kind: 'enrollment',
        enrollmentId: id,
        userId: seat.user_id,
        to: seat.email,
        link: url,
        requestedBy: principal.userId,
        now,
      });
      await auditChange(trx, c, deps, {
        action: 'CREATE',
        resourceType: 'ENROLLMENT',
        resourceId: id,
        accountId: body.account_id,
        details: {
          seat_id: seat.id,
          seat_kind: seat.kind,
          seat_name: seat.name,
          profile_id: profile.id,
          profile_name: profile.name,
        },
      });
      return { enrollment: await readBack(trx, id), enrollment_url: url } satisfies EnrollmentCreated;
    });
    deps.mail.nudge();
    c.header('Location', apiPaths.enrollments.byId(answer.enrollment.id));
    c.header('ETag', entityTag(answer.enrollment.version));
    return c.json(answer, 201);
  });

  // Before the public `enrollment/:id/:code`, which would take `status` for a code.
  app.get(STATUS, authenticated, idParams, async (c) => {
    const found = await enrollments.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
    const { row } = found;
    c.header('ETag', entityTag(row.version));
    const answer: EnrollmentStatusAnswer = {
      id: row.id,
      status: effectiveStatus(row, deps.now()),
      certificate_id: row.certificate_id,
      version: row.version,
    };
    return c.json(answer);
  });

  app.get(BY_ID, authenticated, idParams, (c) => enrollments.read(c, c.req.valid('param')));

  /**
   * A new code and a new week for the enrollment, mailed to its seat as `kind`: the old code and its
   * waiting mail die, the wrong codes are forgotten. The trail says the code changed, never what it
   * is. Answers the new link.
   */
  async function replaceCode(
    trx: Kysely<Database>,
    c: Context<AppEnv>,
    row: StoredEnrollment,
    now: Date,
    kind: EnrollmentMailKind,
  ): Promise<string> {
    const code = newEnrollmentCode(now);
    await updateEnrollment(trx, row.id, {
      code_hash: code.hash,
      code_expires_at: code.expiresAt,
      failed_attempts: 0,
    });
    const url = enrollmentUrl(deps, row.id, code.code);
    await enqueueEnrollmentMail(trx, {
      kind,
      enrollmentId: row.id,
      userId: row.seat.user_id,
      to: row.seat.email,
      link: url,
      requestedBy: c.var.principal.userId,
      now,
    });
    await auditChange(trx, c, deps, {
      action: 'UPDATE',
      resourceType: 'ENROLLMENT',
      resourceId: row.id,
      accountId: row.account_id,
      details: updateDetails(
        {
          code: row.code_hash,
          code_expires_at: row.code_expires_at.toISOString(),
          failed_attempts: row.failed_attempts,
        },
        { code: code.hash, code_expires_at: code.expiresAt.toISOString(), failed_attempts: 0 },
        ['code_expires_at', 'failed_attempts'],
      ),
    });
    return url;
  }

  // A new code and a new week; the old code and its waiting mail die, the wrong codes are forgotten.
  app.post(RESEND, authenticated, idParams, async (c) => {
    const now = deps.now();
    const answer = await db.transaction().execute(async (trx) => {
      const row = await lockedForChange(trx, c, c.req.valid('param').id);
      const status = effectiveStatus(row, now);
      if (status !== 'pending' && status !== 'expired') {
        throw new ApiError(409, `The enrollment is ${status}; only a pending or expired one is sent again.`);
      }
      const url = await replaceCode(trx, c, row, now, 'enrollment');
      return { enrollment: await readBack(trx, row.id), enrollment_url: url } satisfies EnrollmentCreated;
    });
    deps.mail.nudge();
    c.header('ETag', entityTag(answer.enrollment.version));
    return c.json(answer);
  });

  // Cancels: a pending one stops working; an issued or redeemed one has its certificate revoked.
  app.delete(BY_ID, authenticated, idParams, async (c) => {
    const now = deps.now();
    await db.transaction().execute(async (trx) => {
      const row = await lockedForChange(trx, c, c.req.valid('param').id);
      if (row.stored_status === 'cancelled') throw new ApiError(409, 'The enrollment is already cancelled.');
      // What the link made goes with it: the enrollment's certificate and the client certificate
      // the enrollee made through it (decision 033).
      const made = await certificatesMadeThrough(trx, row);
      if (made.length > 0) {
        await revokeCertificates(deps, trx, requestActor(c, deps.config), {
          where: 'certificate',
          ids: made,
          reason: revocationReasonFor(row.seat),
        });
      }
      await dropWaitingEnrollmentMail(trx, row.id);
      await updateEnrollment(trx, row.id, { status: 'cancelled', cancelled_at: now });
      await auditChange(trx, c, deps, {
        action: 'UPDATE',
        resourceType: 'ENROLLMENT',
        resourceId: row.id,
        accountId: row.account_id,
        details: updateDetails({ status: effectiveStatus(row, now) }, { status: 'cancelled' }, ['status']),
      });
      c.header('ETag', entityTag(row.version + 1));
    });
    return c.body(null, 204);
  });

  app.get(SEAT, authenticated, validateParams(seatIdParamsSchema), async (c) => {
    const seat = await findReachableSeat(db, c.var.principal, c.req.valid('param').id);
    if (!seat) throw new ApiError(404, 'Seat not found.');
    assertEnrollmentAccess(c.var.principal, 'view');
    return c.json(seat);
  });

  app.get(
    SEAT_ENROLLMENTS,
    authenticated,
    validateParams(seatIdParamsSchema),
    validateQuery(seatEnrollmentsQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const seat = await findReachableSeat(db, principal, c.req.valid('param').id);
      if (!seat) throw new ApiError(404, 'Seat not found.');
      assertEnrollmentAccess(principal, 'view');
      const { limit = DEFAULT_LIST_LIMIT, offset = 0, after } = c.req.valid('query');
      return c.json(
        await listEnrollments(
          db,
          principal,
          { seat_id: seat.id },
          { limit, offset, after, sort: DEFAULT_SORT },
          deps.now(),
        ),
      );
    },
  );

  // Q-61 (decision 033): asks for a client-authentication certificate for the enrollment's person,
  // who makes it through the enrollment link where they are; the administrator never receives a
  // certificate or a key. The enrollment within reach and manage enrollment, then the person as
  // their own generate route judges it (within the caller's user reach, manage user and all the
  // person holds, a signed-in session), then the enrollment's state. Asking again changes nothing.
  app.post(CLIENT_AUTH_CERTIFICATE, authenticated, idParams, async (c) => {
    const principal = c.var.principal;
    const now = deps.now();
    const answer = await db.transaction().execute(async (trx) => {
      const { row } = await enrollments.locate(trx, principal, c.req.valid('param'), 'manage', true);
      if (row.seat.user_id === null) {
        throw new ApiError(409, 'The enrollment is for a device; client authentication is for people.');
      }
      const owner = await PERSON_CERTIFICATE_OWNERS.find(trx, principal, row.seat.user_id, true);
      if (!owner) throw new ApiError(404, USER_NOT_FOUND);
      assertMayRegister(PERSON_CERTIFICATE_OWNERS, principal, owner);
      const status = effectiveStatus(row, now);
      if (status === 'cancelled' || status === 'expired') {
        throw new ApiError(
          409,
          `The enrollment is ${status}; its link opens nothing to make a certificate with.`,
        );
      }
      if (row.client_auth_certificate_id !== null) {
        throw new ApiError(409, 'The client certificate asked for on this enrollment was made already.');
      }
      if (row.client_auth_requested_at === null) {
        await updateEnrollment(trx, row.id, {
          client_auth_requested_at: now,
          client_auth_requested_by: principal.userId,
        });
        await auditChange(trx, c, deps, {
          action: 'UPDATE',
          resourceType: 'ENROLLMENT',
          resourceId: row.id,
          accountId: row.account_id,
          details: updateDetails({ client_auth: null }, { client_auth: 'requested' }, ['client_auth']),
        });
      }
      // A used link no longer opens the enrollment page, and the enrollee may have thrown its mail
      // away: they get a new link of its own, which opens the client certificate only. Each ask
      // sends one, so a lost or expired mail is replaced by asking again.
      if (status === 'issued' || status === 'redeemed') {
        await replaceCode(trx, c, row, now, 'enrollment_client_auth');
      }
      return readBack(trx, row.id);
    });
    c.header('ETag', entityTag(answer.version));
    return c.json(answer);
  });

  // The enrollee (no session) ------------------------------------------------------------------

  /**
   * Judges the code of a public call before anything else (decisions 021 §2, 031): 429 while the
   * pair (address, enrollment) is blocked; 404 alike for an unknown id and a wrong code, which counts
   * against the pair, the address, every address and the enrollment's `failed_attempts`, or 429 when
   * the address is restricted; then 403 for a right code of an account whose public issuance is off.
   * A right code is never refused for wrong codes sent from elsewhere, nor for the enrollment's count.
   * The counts are written outside any transaction, so the answer cannot roll them back.
   */
  async function judgeCode(c: Context<AppEnv>, params: { id: string; code: string }) {
    const address = clientAddress(c, deps.config);
    const attempt = { enrollmentId: params.id, address };
    const now = deps.now();
    const verdict = await checkCodeThrottle(db, now, attempt);
    if (verdict.kind === 'blocked') throw tooManyWrongCodes(c, verdict.retryAfterSeconds);
    const found = await findEnrollment(db, params.id, false);
    // Compared even for an unknown id, so both answers take the same work.
    if (!codeMatches(params.code, found?.code_hash) || !found) {
      await recordWrongCode(db, now, attempt, verdict);
      if (found) await countWrongCode(db, found.id);
      if (verdict.kind === 'restricted') throw tooManyWrongCodes(c, verdict.retryAfterSeconds);
      throw new ApiError(404, NOT_FOUND);
    }
    await clearCodeFailures(db, attempt);
    // The account's public issuance off (decision 022 §4): its certificates are issued by its
    // administrators only, so its links open nothing; their own routes are not affected.
    if (!(await featureEnabled(db, found.account_id, 'public_issuance'))) {
      throw new ApiError(403, "The account's certificates are not issued through enrollment links.", {
        code: 'publicIssuanceDisabled',
      });
    }
    return { row: found, address };
  }

  /** The enrollment again under its row lock, as long as its code has not changed meanwhile. */
  async function relock(trx: Kysely<Database>, judged: StoredEnrollment): Promise<StoredEnrollment> {
    const row = await findEnrollment(trx, judged.id, true);
    if (!row || row.code_hash !== judged.code_hash) throw new ApiError(404, NOT_FOUND);
    return row;
  }

  /** A pending enrollment whose code still works: 410 once it expired, 409 once used or cancelled. */
  function assertPending(row: StoredEnrollment, now: Date): void {
    const status = effectiveStatus(row, now);
    if (status !== 'pending') throw notAsked(status, `The enrollment is ${status}.`);
  }

  async function profilePolicyOf(trx: Kysely<Database>, row: StoredEnrollment) {
    const profile =
      row.profile_id === null
        ? undefined
        : await trx
            .selectFrom('certificate_profiles')
            .select(['id', 'name', 'policy'])
            .where('id', '=', row.profile_id)
            .executeTakeFirst();
    if (!profile) throw new ApiError(409, 'The certificate profile of the enrollment no longer exists.');
    return profile;
  }

  app.get(BY_CODE, codeParams, async (c) => {
    const { row } = await judgeCode(c, c.req.valid('param'));
    assertPending(row, deps.now());
    const profile = await profilePolicyOf(db, row);
    const person =
      row.seat.user_id === null
        ? undefined
        : await db
            .selectFrom('users')
            .select(['first_name', 'last_name'])
            .where('id', '=', row.seat.user_id)
            .executeTakeFirst();
    const answer: PublicEnrollment = {
      id: row.id,
      status: 'pending',
      account_name: row.account_name,
      profile_name: row.profile_name,
      seat_kind: row.seat.kind,
      first_name: person?.first_name ?? row.seat.name,
      last_name: person?.last_name ?? '',
      email: row.seat.email,
      subject_rules: profile.policy.subject,
      key_types: policyKeyTypeNames(profile.policy),
      code_expires_at: row.code_expires_at.toISOString(),
    };
    return c.json(answer);
  });

  // A certificate issued but not yet in a keystore (the connection broke before the import, or the
  // token moved to another computer) is fetched again to install it later (decision 021 §6).
  app.get(CERTIFICATE, codeParams, async (c) => {
    const { row } = await judgeCode(c, c.req.valid('param'));
    const status = effectiveStatus(row, deps.now());
    if ((status !== 'issued' && status !== 'redeemed') || row.certificate_id === null) {
      throw notAsked(status, `The enrollment is ${status}; it has no certificate to install.`);
    }
    const certificate = await db
      .selectFrom('certificates')
      .select(['id', 'serial_number', 'issuer_id', 'certificate'])
      .where('id', '=', row.certificate_id)
      .executeTakeFirst();
    if (!certificate) throw new ApiError(409, 'The certificate of the enrollment no longer exists.');
    return c.json(await certificateAnswer(db, certificate, row));
  });

  app.post(CERTIFICATE, codeParams, validateJson(enrollmentCertificateRequestSchema), async (c) => {
    const judged = await judgeCode(c, c.req.valid('param'));
    const {
      csr,
      common_name,
      enrollment_method,
      keystore_type,
      name: _name,
      end_date: _endDate,
      ...subject
    } = c.req.valid('json');
    const answer = await db.transaction().execute(async (trx) => {
      const row = await relock(trx, judged.row);
      const now = deps.now();
      assertPending(row, now);
      const profile = await profilePolicyOf(trx, row);
      const actor = enrolleeActor(row.seat, c, judged.address);
      // The profile decides the validity and every extension (decision 019); the request gives
      // the subject values it allows and the key, nothing else of the CSR is taken.
      const issued = await issueCertificate(deps, trx, actor, {
        csr,
        policy: profile.policy,
        subject: { ...subject, common_name },
        accountId: row.account_id,
        profile: { id: profile.id, name: profile.name },
        source: 'enrollment',
        ownerUserId: row.seat.user_id,
      });
      const after = {
        status: 'issued' as const,
        certificate_id: issued.row.id,
        enrollment_method,
        keystore_type,
      };
      await updateEnrollment(trx, row.id, { ...after, issued_at: now });
      await auditChangeBy(trx, actor, deps, {
        action: 'UPDATE',
        resourceType: 'ENROLLMENT',
        resourceId: row.id,
        accountId: row.account_id,
        details: updateDetails(
          { status: 'pending', certificate_id: null, enrollment_method: null, keystore_type: null },
          after,
          Object.keys(after),
        ),
      });
      return certificateAnswer(trx, issued.row, { ...after, profile_name: row.profile_name });
    });
    return c.json(answer, 201);
  });

  app.put(REDEEM, codeParams, async (c) => {
    const judged = await judgeCode(c, c.req.valid('param'));
    await db.transaction().execute(async (trx) => {
      const row = await relock(trx, judged.row);
      if (row.stored_status !== 'issued') {
        // An expired code does not stop a redeem after the issue (decision 021 §4), so a pending
        // enrollment past its lifetime is "not issued" here rather than expired.
        const status = row.stored_status === 'pending' ? 'pending' : effectiveStatus(row, deps.now());
        throw notAsked(status, `The enrollment is ${status}; only an issued one is redeemed.`);
      }
      await updateEnrollment(trx, row.id, { status: 'redeemed', redeemed_at: deps.now() });
      await auditChangeBy(trx, enrolleeActor(row.seat, c, judged.address), deps, {
        action: 'UPDATE',
        resourceType: 'ENROLLMENT',
        resourceId: row.id,
        accountId: row.account_id,
        details: updateDetails({ status: 'issued' }, { status: 'redeemed' }, ['status']),
      });
    });
    return c.body(null, 204);
  });

  /**
   * The client certificate asked for the enrollee (decision 033): judged by the code as the other
   * public calls, then 410 once the link expired, 409 when cancelled, when nothing was asked
   * for, or when the person is gone.
   */
  async function clientAuthOffer(executor: Kysely<Database>, row: StoredEnrollment, now: Date) {
    // Unlike the pickup of the enrollment's own certificate, a link makes a client certificate
    // within its lifetime only, whatever the enrollment's state: it signs the person in.
    if (row.code_expires_at.getTime() <= now.getTime()) {
      throw new ApiError(410, 'The enrollment link has expired; ask for a new one.');
    }
    if (row.stored_status === 'cancelled') throw new ApiError(409, 'The enrollment is cancelled.');
    const person =
      row.client_auth_requested_at === null || row.seat.user_id === null
        ? undefined
        : await executor
            .selectFrom('users')
            .select(['id', 'user_name', 'primary_account_id'])
            .where('id', '=', row.seat.user_id)
            .executeTakeFirst();
    if (!person) throw new ApiError(409, 'No client certificate was asked for on this enrollment.');
    return person;
  }

  app.get(PUBLIC_CLIENT_AUTH_CERTIFICATE, codeParams, async (c) => {
    const { row } = await judgeCode(c, c.req.valid('param'));
    const person = await clientAuthOffer(db, row, deps.now());
    const answer: PublicClientAuthOffer = {
      status: clientAuthOf(row)?.status ?? 'requested',
      user_name: person.user_name,
      account_name: row.account_name,
    };
    return c.json(answer);
  });

  // The enrollee's CSR, made in their browser: the certificate signs the person in once issued, in
  // their name whatever the CSR says, and is theirs alone (decision 033).
  app.post(PUBLIC_CLIENT_AUTH_CERTIFICATE, codeParams, validateJson(clientAuthGenerateSchema), async (c) => {
    const judged = await judgeCode(c, c.req.valid('param'));
    const { csr } = c.req.valid('json');
    const answer = await db.transaction().execute(async (trx) => {
      const row = await relock(trx, judged.row);
      const now = deps.now();
      const person = await clientAuthOffer(trx, row, now);
      if (row.client_auth_certificate_id !== null) {
        throw new ApiError(409, 'The client certificate of this enrollment was made already.');
      }
      const actor = enrolleeActor(row.seat, c, judged.address);
      const { item, issued } = await issueClientAuthCertificate(trx, deps, actor, person, csr, now);
      await updateEnrollment(trx, row.id, { client_auth_certificate_id: item.id });
      await auditChangeBy(trx, actor, deps, {
        action: 'UPDATE',
        resourceType: 'ENROLLMENT',
        resourceId: row.id,
        accountId: row.account_id,
        details: updateDetails({ client_auth: 'requested' }, { client_auth: 'issued' }, ['client_auth']),
      });
      return {
        certificate: issued.pem,
        chain: issued.chain,
        serial_number: issued.row.serial_number,
      } satisfies PublicClientAuthIssued;
    });
    return c.json(answer, 201);
  });

  return app;
}
