import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths, UI_API_V1, UI_API_V2 } from '../../contract/paths.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Enrollment,
  type EnrollmentCreated,
  type EnrollmentStatusAnswer,
  enrollmentCreatedSchema,
  enrollmentCreateSchema,
  enrollmentIdParamsSchema,
  enrollmentListQuerySchema,
  enrollmentListSchema,
  enrollmentSchema,
  enrollmentStatusAnswerSchema,
  seatEnrollmentsQuerySchema,
  seatIdParamsSchema,
  seatSchema,
} from '../../contract/schemas/enrollments.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, requestActor, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { USER_NOT_FOUND } from '../authorization/user-reach.ts';
import { revokeCertificates } from '../ca/index.ts';
import { assertMayRegister, PERSON_CERTIFICATE_OWNERS } from '../client-auth/index.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField, validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { type EnrollmentMailKind, enrollmentPath } from '../mail/kinds.ts';
import { dropWaitingEnrollmentMail, enqueueEnrollmentMail } from '../mail/outbox.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertEnrollmentAccess } from './access.ts';
import { newEnrollmentCode } from './codes.ts';
import {
  certificatesMadeThrough,
  DEFAULT_SORT,
  effectiveStatus,
  ensureDeviceSeat,
  ensureUserSeat,
  findEnrollment,
  findPersonOfAccount,
  findProfileOfAccount,
  findReachableEnrollment,
  findReachableSeat,
  insertEnrollment,
  listEnrollments,
  type StoredEnrollment,
  toEnrollment,
  updateEnrollment,
} from './repository.ts';
import { revocationReasonFor } from './rules.ts';

/** The routes' paths (`apiPaths.enrollments` with Hono's parameters). */
const LIST = `${UI_API_V1}/enrollments`;
const CREATE = `${UI_API_V2}/enrollment`;
const BY_ID = `${UI_API_V2}/enrollment/:id`;
const STATUS = `${BY_ID}/status`;
const RESEND = `${BY_ID}/resend`;
const CLIENT_AUTH_CERTIFICATE = `${UI_API_V1}/enrollment/:id/client-auth-certificate`;
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
 * The person the seat is for: a user of the account (primary or added to it), not a service user
 * (whose certificates are client-authentication ones, decision 019).
 */
async function personOfAccount(trx: Kysely<Database>, accountId: string, userId: string) {
  const user = await findPersonOfAccount(trx, accountId, userId);
  if (!user) throw invalidField('seat.user_id', 'invalidValue');
  if (user.email === '') throw invalidField('seat.user_id', 'required');
  return {
    id: user.id,
    name: `${user.first_name} ${user.last_name}`.trim() || user.user_name,
    email: user.email,
  };
}

/** Certificate enrollment (decision 021): the administrators' routes; the enrollee's are `enrollee-routes.ts`. */
export function enrollmentRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const enrollments = versionedResource(deps, enrollmentKind(deps));
  const idParams = validateParams(enrollmentIdParamsSchema);

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

  app.get(
    LIST,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "The enrollments of the accounts the caller reaches (view enrollment), filtered by account_id, seat_id, status (expired: pending past its code's end) and search (seat name, e-mail or profile), sorted by created_at, status or seat_name, a page at a time; an account filter out of reach is 404.",
      success: { status: 200, description: 'Enrollments', schema: enrollmentListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(enrollmentListQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      if (filters.account_id !== undefined && !(await canSeeAccount(db, principal, filters.account_id))) {
        throw new ApiError(404, ACCOUNT_NOT_FOUND);
      }
      assertEnrollmentAccess(principal, 'view');
      return c.json(await listEnrollments(db, principal, filters, page, deps.now()));
    },
  );

  app.post(
    CREATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Enrolls a person of the account (their seat made on first use) or a device (named, with its technician's e-mail) under one of the account's profiles (manage enrollment): makes a one-week code, mails the link and answers it once. A profile of another account or a person not of the account is 400 naming the field.",
      success: {
        status: 201,
        description: 'Enrollment created, with its link',
        schema: enrollmentCreatedSchema,
        etag: true,
      },
      failures: [400, 403, 404, 413, 415],
    }),
    authenticated,
    validateJson(enrollmentCreateSchema),
    async (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const now = deps.now();
      const answer = await db.transaction().execute(async (trx) => {
        if (!(await canSeeAccount(trx, principal, body.account_id)))
          throw new ApiError(404, ACCOUNT_NOT_FOUND);
        assertEnrollmentAccess(principal, 'manage');
        const profile = await findProfileOfAccount(trx, body.account_id, body.profile_id);
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
    },
  );

  // Before the public `enrollment/:id/:code`, which would take `status` for a code.
  app.get(
    STATUS,
    describeOperation({
      tag: 'Enrollment',
      summary: 'Where an enrollment stands (view enrollment), for a console waiting on the enrollee.',
      success: {
        status: 200,
        description: 'Enrollment status',
        schema: enrollmentStatusAnswerSchema,
        etag: true,
      },
      failures: [400, 403, 404],
    }),
    authenticated,
    idParams,
    async (c) => {
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
    },
  );

  app.get(
    BY_ID,
    describeOperation({
      tag: 'Enrollment',
      summary: 'An enrollment the caller reaches (view enrollment); ETag is its version. Never its code.',
      success: { status: 200, description: 'Enrollment', schema: enrollmentSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    idParams,
    (c) => enrollments.read(c, c.req.valid('param')),
  );

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
  app.post(
    RESEND,
    describeOperation({
      tag: 'Enrollment',
      summary:
        'Sends a pending or expired enrollment again (manage enrollment): a new code and a new week, the old code and its waiting mail dead, the wrong codes forgotten; answers the new link once. Issued, redeemed or cancelled is 409.',
      success: {
        status: 200,
        description: 'Enrollment sent again, with its new link',
        schema: enrollmentCreatedSchema,
        etag: true,
      },
      failures: [400, 403, 404, 409],
      ifMatch: { required: false, current: enrollmentSchema },
    }),
    authenticated,
    idParams,
    async (c) => {
      const now = deps.now();
      const answer = await db.transaction().execute(async (trx) => {
        const row = await lockedForChange(trx, c, c.req.valid('param').id);
        const status = effectiveStatus(row, now);
        if (status !== 'pending' && status !== 'expired') {
          throw new ApiError(
            409,
            `The enrollment is ${status}; only a pending or expired one is sent again.`,
          );
        }
        const url = await replaceCode(trx, c, row, now, 'enrollment');
        return { enrollment: await readBack(trx, row.id), enrollment_url: url } satisfies EnrollmentCreated;
      });
      deps.mail.nudge();
      c.header('ETag', entityTag(answer.enrollment.version));
      return c.json(answer);
    },
  );

  // Cancels: a pending one stops working; an issued or redeemed one has its certificate revoked.
  app.delete(
    BY_ID,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Cancels an enrollment (manage enrollment): its code stops working and its waiting mail is dropped; an issued or redeemed one has its certificate revoked (a device's cessationOfOperation, a person's affiliationChanged) in the same transaction. One already cancelled is 409.",
      success: { status: 204, description: 'Enrollment cancelled', etag: true },
      failures: [400, 403, 404, 409],
      ifMatch: { required: false, current: enrollmentSchema },
    }),
    authenticated,
    idParams,
    async (c) => {
      const now = deps.now();
      await db.transaction().execute(async (trx) => {
        const row = await lockedForChange(trx, c, c.req.valid('param').id);
        if (row.stored_status === 'cancelled')
          throw new ApiError(409, 'The enrollment is already cancelled.');
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
    },
  );

  app.get(
    SEAT,
    describeOperation({
      tag: 'Enrollment',
      summary: 'A seat (a person or a device of an account) the caller reaches (view enrollment).',
      success: { status: 200, description: 'Seat', schema: seatSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateParams(seatIdParamsSchema),
    async (c) => {
      const seat = await findReachableSeat(db, c.var.principal, c.req.valid('param').id);
      if (!seat) throw new ApiError(404, 'Seat not found.');
      assertEnrollmentAccess(c.var.principal, 'view');
      return c.json(seat);
    },
  );

  app.get(
    SEAT_ENROLLMENTS,
    describeOperation({
      tag: 'Enrollment',
      summary: "A seat's enrollments, newest first (view enrollment).",
      success: { status: 200, description: 'Enrollments', schema: enrollmentListSchema },
      failures: [400, 403, 404],
    }),
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
  app.post(
    CLIENT_AUTH_CERTIFICATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Q-61 (decision 033): asks for a client-authentication certificate for the enrollment's person, who makes it through the enrollment link where they are; no certificate or key reaches the caller. Manage enrollment, then whoever may change that person, in a signed-in session. A device's enrollment, a cancelled or expired one, or one whose client certificate was made already is 409; asking again changes nothing.",
      success: {
        status: 200,
        description: 'The enrollment, its client certificate requested',
        schema: enrollmentSchema,
        etag: true,
      },
      failures: [400, 403, 404, 409],
    }),
    authenticated,
    idParams,
    async (c) => {
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
    },
  );

  return app;
}
