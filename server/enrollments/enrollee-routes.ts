import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { policyKeyTypeNames } from '../../contract/certificate-policy.ts';
import { UI_API_V2 } from '../../contract/paths.ts';
import { clientAuthGenerateSchema } from '../../contract/schemas/client-auth.ts';
import {
  type EnrollmentCertificate,
  type EnrollmentStatus,
  enrollmentCertificateRequestSchema,
  enrollmentCertificateSchema,
  enrollmentCodeParamsSchema,
  type PublicClientAuthIssued,
  type PublicClientAuthOffer,
  type PublicEnrollment,
  publicClientAuthIssuedSchema,
  publicClientAuthOfferSchema,
  publicEnrollmentSchema,
  type Seat,
} from '../../contract/schemas/enrollments.ts';
import { featureEnabled } from '../account-features/index.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy, updateDetails } from '../audit/change.ts';
import { certificatePem, certificatesPkcs7, issueCertificate } from '../ca/index.ts';
import { issuerChain } from '../certificates/index.ts';
import { issueClientAuthCertificate } from '../client-auth/index.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams } from '../http/validate.ts';
import { checkCodeThrottle, clearCodeFailures, recordWrongCode } from './code-throttle.ts';
import { codeMatches } from './codes.ts';
import {
  clientAuthOf,
  countWrongCode,
  effectiveStatus,
  findClientAuthPerson,
  findEnrollment,
  findEnrollmentCertificate,
  findPersonName,
  findProfilePolicy,
  type StoredEnrollment,
  updateEnrollment,
} from './repository.ts';

const NOT_FOUND = 'Enrollment not found.';

/** The enrollee's routes' paths (`apiPaths.enrollments` with Hono's parameters). */
const BY_CODE = `${UI_API_V2}/enrollment/:id/:code`;
const CERTIFICATE = `${BY_CODE}/certificate`;
const REDEEM = `${BY_CODE}/redeem`;
const PUBLIC_CLIENT_AUTH_CERTIFICATE = `${BY_CODE}/client-auth-certificate`;

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

/**
 * The enrollee's routes (decision 021): nobody is signed in, the enrollment link's code is the
 * credential, judged before anything else. Mounted after the administrators' routes, whose
 * `enrollment/:id/status` would otherwise be taken for a code.
 */
export function enrolleeRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const codeParams = validateParams(enrollmentCodeParamsSchema);

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
    const profile = row.profile_id === null ? undefined : await findProfilePolicy(trx, row.profile_id);
    if (!profile) throw new ApiError(409, 'The certificate profile of the enrollment no longer exists.');
    return profile;
  }

  app.get(
    BY_CODE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Public: the enrollment as its mailed code opens it, for the enrollment page. An unknown id and a wrong code are both 404 and count against the enrollment (five stop it until a resend) and the client's address (as failed sign-ins do); 429 while either is exhausted, 403 (publicIssuanceDisabled) while the account's public issuance feature is off, 410 once the code expired, 409 once issued, redeemed or cancelled.",
      success: {
        status: 200,
        description: 'The enrollment, for its enrollee',
        schema: publicEnrollmentSchema,
      },
      failures: [400, 403, 404, 409, 410, 429],
    }),
    codeParams,
    async (c) => {
      const { row } = await judgeCode(c, c.req.valid('param'));
      assertPending(row, deps.now());
      const profile = await profilePolicyOf(db, row);
      const person = row.seat.user_id === null ? undefined : await findPersonName(db, row.seat.user_id);
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
    },
  );

  // A certificate issued but not yet in a keystore (the connection broke before the import, or the
  // token moved to another computer) is fetched again to install it later (decision 021 §6).
  app.get(
    CERTIFICATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        'Public: the certificate of an issued or redeemed enrollment again, with its chain, to install it in a keystore later (the import failed, or the token moved to another computer). Pending or cancelled is 409, expired 410; the code is judged as for the GET.',
      success: {
        status: 200,
        description: 'The issued certificate, with its chain (issuing CA, root), PEM',
        schema: enrollmentCertificateSchema,
      },
      failures: [400, 403, 404, 409, 410, 429],
    }),
    codeParams,
    async (c) => {
      const { row } = await judgeCode(c, c.req.valid('param'));
      const status = effectiveStatus(row, deps.now());
      if ((status !== 'issued' && status !== 'redeemed') || row.certificate_id === null) {
        throw notAsked(status, `The enrollment is ${status}; it has no certificate to install.`);
      }
      const certificate = await findEnrollmentCertificate(db, row.certificate_id);
      if (!certificate) throw new ApiError(409, 'The certificate of the enrollment no longer exists.');
      return c.json(await certificateAnswer(db, certificate, row));
    },
  );

  app.post(
    CERTIFICATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Public: issues the enrollment's certificate from the enrollee's CSR under the profile's policy, with the subject values the request gives and the policy allows, and moves the enrollment to issued in the same transaction: one certificate per enrollment, a second request is 409. A key or subject the profile refuses is 400 naming the field. The code is judged as for the GET.",
      success: {
        status: 201,
        description: 'Certificate issued, with its chain (issuing CA, root), PEM',
        schema: enrollmentCertificateSchema,
      },
      failures: [400, 403, 404, 409, 410, 413, 415, 429],
    }),
    codeParams,
    validateJson(enrollmentCertificateRequestSchema),
    async (c) => {
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
    },
  );

  app.put(
    REDEEM,
    describeOperation({
      tag: 'Enrollment',
      summary:
        'Public, without a body: the certificate sits in the keystore; the enrollment moves from issued to redeemed, once (409 otherwise). The code is judged as for the GET.',
      success: { status: 204, description: 'Enrollment redeemed' },
      failures: [400, 403, 404, 409, 429],
    }),
    codeParams,
    async (c) => {
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
    },
  );

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
        : await findClientAuthPerson(executor, row.seat.user_id);
    if (!person) throw new ApiError(409, 'No client certificate was asked for on this enrollment.');
    return person;
  }

  app.get(
    PUBLIC_CLIENT_AUTH_CERTIFICATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        'Public (decision 033): the client-authentication certificate an administrator asked for the enrollee, in whose user name it is issued, and whether it was made. Nothing asked for, or cancelled, is 409, a pending link expired 410; the code is judged as for the GET of the enrollment.',
      success: {
        status: 200,
        description: 'The client certificate asked for',
        schema: publicClientAuthOfferSchema,
      },
      failures: [400, 403, 404, 409, 410, 429],
    }),
    codeParams,
    async (c) => {
      const { row } = await judgeCode(c, c.req.valid('param'));
      const person = await clientAuthOffer(db, row, deps.now());
      const answer: PublicClientAuthOffer = {
        status: clientAuthOf(row)?.status ?? 'requested',
        user_name: person.user_name,
        account_name: row.account_name,
      };
      return c.json(answer);
    },
  );

  // The enrollee's CSR, made in their browser: the certificate signs the person in once issued, in
  // their name whatever the CSR says, and is theirs alone (decision 033).
  app.post(
    PUBLIC_CLIENT_AUTH_CERTIFICATE,
    describeOperation({
      tag: 'Enrollment',
      summary:
        "Public (decision 033): issues the client-authentication certificate asked for the enrollee from the CSR their browser made, in the person's name whatever the CSR says, and registers it on the person's client certificates; once per enrollment (409 after). The answer holds no key: it never left the enrollee.",
      success: {
        status: 201,
        description: 'Certificate issued, with its chain (issuing CA, root), PEM',
        schema: publicClientAuthIssuedSchema,
      },
      failures: [400, 403, 404, 409, 410, 413, 415, 429],
    }),
    codeParams,
    validateJson(clientAuthGenerateSchema),
    async (c) => {
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
    },
  );

  return app;
}
