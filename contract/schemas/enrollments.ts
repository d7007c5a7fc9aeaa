import * as v from 'valibot';
import { SUBJECT_FIELDS, type SubjectField, type SubjectFieldRule } from '../certificate-policy.ts';
import type { SecurityPolicy } from '../trust-agent/desktop-client.ts';
import { emailSchema, type ValidationCode } from '../validation.ts';
import { ENROLLMENT_METHODS } from './certificate-profiles.ts';
import { certificateIssueSchema } from './certificates.ts';
import { type ApiErrorCode, listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery } from './query.ts';

/**
 * Certificate enrollment (overview §3, §4, §7; decision 021). An administrator enrolls a seat — a
 * person of the account or one of its devices — under one of the account's certificate profiles; the
 * platform mails the enrollee a link with the enrollment's id and a one-time code; the enrollment page
 * makes the key in the trust agent, sends the certificate request, imports the certificate and
 * redeems the enrollment.
 */

/**
 * pending: the code works; issued: the certificate exists, the page has not redeemed yet;
 * redeemed: done; cancelled: an administrator withdrew it (its certificate, if any, is revoked);
 * expired: the code's time ran out before an issue.
 */
export const ENROLLMENT_STATUSES = ['pending', 'issued', 'redeemed', 'cancelled', 'expired'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export const SEAT_KINDS = ['user', 'device'] as const;
export type SeatKind = (typeof SEAT_KINDS)[number];

/** How long a mailed code works (not shown in the spec: a week, like invitation links). */
export const ENROLLMENT_CODE_TTL_DAYS = 7;
/**
 * Why a public enrollment call refused a link, as the error answer's `code` says it and the link
 * error page tells it (decision 031): unknown or wrong, too many wrong codes from the caller's
 * address for now, a certificate issued already, cancelled, expired.
 */
export const ENROLLMENT_LINK_FAILURES = [
  'notFound',
  'throttled',
  'enrollmentUsed',
  'enrollmentCancelled',
  'enrollmentExpired',
] as const satisfies readonly ApiErrorCode[];
export type EnrollmentLinkFailure = (typeof ENROLLMENT_LINK_FAILURES)[number];

/** The certificate request's end date is one year ahead (overview §3, §9). */
export const ENROLLMENT_VALIDITY_YEARS = 1;

export const seatSchema = v.object({
  id: v.string(),
  account_id: v.string(),
  kind: v.picklist(SEAT_KINDS),
  /** The person's user id for a `user` seat. */
  user_id: v.nullable(v.string()),
  /** The person's name, or the device's. */
  name: v.string(),
  email: v.string(),
  created_at: v.string(),
});
export type Seat = v.InferOutput<typeof seatSchema>;

export const enrollmentSchema = v.object({
  id: v.string(),
  account_id: v.string(),
  account_name: v.string(),
  seat: seatSchema,
  profile_id: v.string(),
  profile_name: v.string(),
  status: v.picklist(ENROLLMENT_STATUSES),
  code_expires_at: v.string(),
  /**
   * Wrong codes checked against the enrollment since the last mail, for its administrators to see
   * someone guessing; they never stop the code (decision 031).
   */
  failed_attempts: v.number(),
  enrollment_method: v.nullable(v.picklist(ENROLLMENT_METHODS)),
  keystore_type: v.nullable(v.string()),
  certificate_id: v.nullable(v.string()),
  created_by: v.nullable(v.string()),
  created_at: v.string(),
  issued_at: v.nullable(v.string()),
  redeemed_at: v.nullable(v.string()),
  /**
   * A client-authentication certificate asked for the person (decision 033): `requested` until the
   * enrollee made it through the enrollment link, then `issued` with its id on the person's list.
   */
  client_auth: v.nullable(
    v.object({
      status: v.picklist(['requested', 'issued']),
      requested_at: v.string(),
      client_auth_certificate_id: v.nullable(v.string()),
    }),
  ),
  version: v.number(),
});
export type Enrollment = v.InferOutput<typeof enrollmentSchema>;
export const enrollmentListSchema = listSchema(enrollmentSchema);
export type EnrollmentList = v.InferOutput<typeof enrollmentListSchema>;

/** POST enrollment: for a person of the account, or a device named here. */
export const enrollmentCreateSchema = v.object({
  account_id: resourceIdSchema,
  profile_id: resourceIdSchema,
  seat: v.variant('kind', [
    v.object({ kind: v.literal('user'), user_id: resourceIdSchema }),
    v.object({
      kind: v.literal('device'),
      name: v.pipe(
        v.string('invalidType' satisfies ValidationCode),
        v.trim(),
        v.nonEmpty('required' satisfies ValidationCode),
        v.maxLength(128, 'tooLong' satisfies ValidationCode),
      ),
      /** Where the enrollment link goes: the device's technician. */
      email: emailSchema,
    }),
  ]),
});
export type EnrollmentCreate = v.InferOutput<typeof enrollmentCreateSchema>;

/** The answer to create and resend: the link, shown once here and mailed. */
export const enrollmentCreatedSchema = v.object({
  enrollment: enrollmentSchema,
  enrollment_url: v.string(),
});
export type EnrollmentCreated = v.InferOutput<typeof enrollmentCreatedSchema>;

export const ENROLLMENT_SORT_COLUMNS = ['created_at', 'status', 'seat_name'] as const;
export const enrollmentListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(ENROLLMENT_SORT_COLUMNS),
  account_id: v.optional(resourceIdSchema),
  seat_id: v.optional(resourceIdSchema),
  /** A person's enrollments in every account the viewer sees (their seats there). */
  user_id: v.optional(resourceIdSchema),
  status: v.optional(v.picklist(ENROLLMENT_STATUSES, 'invalidValue' satisfies ValidationCode)),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(128))),
});
export type EnrollmentListQuery = v.InferOutput<typeof enrollmentListQuerySchema>;

/**
 * GET enrollment/{id}/{code} (public): what the enrollee's page needs, and nothing of the
 * administrators: the profile's subject rules decide which enrollment fields the form asks for.
 */
export const publicEnrollmentSchema = v.object({
  id: v.string(),
  status: v.picklist(ENROLLMENT_STATUSES),
  account_name: v.string(),
  profile_name: v.string(),
  seat_kind: v.picklist(SEAT_KINDS),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  /** Which subject fields the profile requires, allows or refuses. */
  subject_rules: v.record(v.picklist(SUBJECT_FIELDS), v.picklist(['required', 'optional', 'not_allowed'])),
  /** Key types the profile accepts, e.g. RSA-2048. */
  key_types: v.array(v.string()),
  code_expires_at: v.string(),
});
export type PublicEnrollment = v.InferOutput<typeof publicEnrollmentSchema>;
export type EnrollmentSubjectRules = Record<SubjectField, SubjectFieldRule>;

/**
 * POST enrollment/{id}/{code}/certificate (overview §3): name (the person's name and a generated
 * suffix), end_date (a year ahead), csr, common_name, enrollment_method, keystore_type (the
 * upper-cased keystore location), and the subject values the profile allows.
 */
export const enrollmentCertificateRequestSchema = v.object({
  ...v.omit(certificateIssueSchema, ['profile_id']).entries,
  name: v.pipe(v.string(), v.trim(), v.nonEmpty('required' satisfies ValidationCode), v.maxLength(200)),
  end_date: v.pipe(v.string(), v.isoDate('invalidValue' satisfies ValidationCode)),
  common_name: v.pipe(v.string(), v.trim(), v.nonEmpty('required' satisfies ValidationCode), v.maxLength(64)),
  enrollment_method: v.picklist(ENROLLMENT_METHODS, 'invalidValue' satisfies ValidationCode),
  keystore_type: v.pipe(v.string(), v.nonEmpty('required' satisfies ValidationCode), v.maxLength(64)),
});
export type EnrollmentCertificateRequest = v.InferOutput<typeof enrollmentCertificateRequestSchema>;

/**
 * The answer: the certificate (PEM) and its chain up to the root (PEM, issuing CA first); the same
 * certificate and chain as a certs-only PKCS#7 (base64 DER) for the desktop client; the enrollment
 * method the certificate was requested with, which picks the install variant (DTA: the trust agent,
 * DDC: the desktop client), and the keystore type and profile name the desktop client installs
 * under (decision 021 §5).
 */
export const enrollmentCertificateSchema = v.object({
  x509_cert: v.string(),
  chain: v.array(v.string()),
  pkcs7: v.string(),
  certificate_id: v.string(),
  serial_number: v.string(),
  enrollment_method: v.nullable(v.picklist(ENROLLMENT_METHODS)),
  keystore_type: v.nullable(v.string()),
  profile_name: v.string(),
});
export type EnrollmentCertificate = v.InferOutput<typeof enrollmentCertificateSchema>;

/**
 * Keystore types that name a hardware token: the keystore location and the keystore source the
 * platform writes for it. The desktop client installs their certificates under the `hardware`
 * security policy, which it enforces; any other type installs under `software`.
 */
const HARDWARE_KEYSTORE_TYPES: readonly string[] = ['HARDWARE_TOKEN', 'HWTK'];

export function securityPolicyOf(keystoreType: string | null): SecurityPolicy {
  return keystoreType !== null && HARDWARE_KEYSTORE_TYPES.includes(keystoreType.toUpperCase())
    ? 'hardware'
    : 'software';
}

export const enrollmentIdParamsSchema = v.object({ id: resourceIdSchema });
export const seatIdParamsSchema = v.object({ id: resourceIdSchema });

/**
 * The public routes' parameters. The code is only bounded here: a code of the wrong form answers like
 * a wrong one (404, counted), so the form of codes is not a way to tell the answers apart.
 */
export const enrollmentCodeParamsSchema = v.object({
  id: resourceIdSchema,
  code: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.maxLength(128, 'tooLong' satisfies ValidationCode),
  ),
});

/**
 * GET enrollment/{id}/{code}/client-auth-certificate (public, decision 033): the client certificate
 * an administrator asked for the enrollee, in whose name it is issued, and whether it was made.
 */
export const publicClientAuthOfferSchema = v.object({
  status: v.picklist(['requested', 'issued']),
  /** The person's user name: the certificate's common name. */
  user_name: v.string(),
  account_name: v.string(),
});
export type PublicClientAuthOffer = v.InferOutput<typeof publicClientAuthOfferSchema>;

/**
 * POST enrollment/{id}/{code}/client-auth-certificate: the certificate issued for the CSR the
 * enrollee's browser made, and its chain (PEM, issuing CA first). There is no key in it: the key
 * never left the enrollee.
 */
export const publicClientAuthIssuedSchema = v.object({
  certificate: v.string(),
  chain: v.array(v.string()),
  serial_number: v.string(),
});
export type PublicClientAuthIssued = v.InferOutput<typeof publicClientAuthIssuedSchema>;

/** GET enrollment/{id}/status: where the enrollment stands, for a console waiting on the enrollee. */
export const enrollmentStatusAnswerSchema = v.object({
  id: v.string(),
  status: v.picklist(ENROLLMENT_STATUSES),
  certificate_id: v.nullable(v.string()),
  version: v.number(),
});
export type EnrollmentStatusAnswer = v.InferOutput<typeof enrollmentStatusAnswerSchema>;

/** GET seat/{id}/enrollments: the paging of the seat's enrollments, newest first. */
export const seatEnrollmentsQuerySchema = v.object({ ...pagingQueryEntries });
