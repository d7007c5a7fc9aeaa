import * as v from 'valibot';
import {
  CERTIFICATE_STATUSES,
  MULTI_VALUE_SUBJECT_FIELDS,
  REVOCATION_REASONS,
  SUBJECT_FIELDS,
  type SubjectField,
} from '../certificate-policy.ts';
import { CERTIFICATE_SORT_COLUMNS } from '../sort-columns.ts';
import { dateOnlySchema, type ValidationCode } from '../validation.ts';
import { CERTIFICATE_EXPORT_FORMATS, parsedCertificateSchema } from './certificate-authority.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery, textFilterQuery } from './query.ts';

/**
 * Certificates the platform CA issued (overview §3, §7 reference data `certificate` and
 * `certificate/export`; decision 019). Their status is derived: `revoked` once revoked, else
 * `expired` after their end of validity, else `issued`.
 */

/** Where a certificate came from: a client-auth login certificate, an enrollment, or a profile. */
export const CERTIFICATE_SOURCES = ['client_auth', 'enrollment', 'profile'] as const;
export type CertificateSource = (typeof CERTIFICATE_SOURCES)[number];

const idNameSchema = v.object({ id: v.string(), name: v.string() });

/** One row of GET certificate: what the list shows, filters and sorts. */
export const certificateSummarySchema = v.object({
  id: v.string(),
  /** Lower-case hexadecimal, no separators. */
  serial_number: v.string(),
  common_name: v.string(),
  /** RFC 4514 distinguished name. */
  subject: v.string(),
  /** Null once the account is gone (only the system scope still sees such certificates). */
  account: v.nullable(idNameSchema),
  /** The profile's name when the certificate was issued under one. */
  profile_name: v.nullable(v.string()),
  source: v.picklist(CERTIFICATE_SOURCES),
  /** e.g. "RSA 2048", "EC P-256". */
  key_algorithm: v.string(),
  /** ISO 8601 instants. */
  not_before: v.string(),
  not_after: v.string(),
  status: v.picklist(CERTIFICATE_STATUSES),
  revoked_at: v.nullable(v.string()),
  revocation_reason: v.nullable(v.picklist(REVOCATION_REASONS)),
  created_at: v.string(),
  version: v.number(),
});
export type CertificateSummary = v.InferOutput<typeof certificateSummarySchema>;

export const certificateListSchema = listSchema(certificateSummarySchema);
export type CertificateList = v.InferOutput<typeof certificateListSchema>;

/** GET certificate/{id}: the row, its parsed details (overview §3) and the certificate, PEM. */
export const certificateSchema = v.object({
  ...certificateSummarySchema.entries,
  details: parsedCertificateSchema,
  pem: v.string(),
});
export type Certificate = v.InferOutput<typeof certificateSchema>;

/** POST certificate: the certificate issued, with its issuing CA's and the root's, PEM each. */
export const certificateIssuedSchema = v.object({
  ...certificateSummarySchema.entries,
  pem: v.string(),
  chain: v.array(v.string()),
});
export type CertificateIssued = v.InferOutput<typeof certificateIssuedSchema>;

/** The list's filters, shared by GET certificate and its CSV export. */
const certificateFilterEntries = {
  sort: sortQuery(CERTIFICATE_SORT_COLUMNS),
  /** Matches the common name or the serial number (with or without colons). */
  q: textFilterQuery,
  status: v.optional(v.picklist(CERTIFICATE_STATUSES, 'invalidValue' satisfies ValidationCode)),
  account_id: v.optional(resourceIdSchema),
  profile_id: v.optional(resourceIdSchema),
  source: v.optional(v.picklist(CERTIFICATE_SOURCES, 'invalidValue' satisfies ValidationCode)),
  /** Issued on or after this day, UTC. */
  issued_from: v.optional(dateOnlySchema),
  /** Issued on or before this day, UTC. */
  issued_to: v.optional(dateOnlySchema),
};

function issuedRangeInOrder(query: { issued_from?: string; issued_to?: string }): boolean {
  return (
    query.issued_from === undefined || query.issued_to === undefined || query.issued_from <= query.issued_to
  );
}

/**
 * GET certificate (the object part is what the API reference lists): paging, sort and filters. `account_id` out of the caller's reach is answered 404;
 * `issued_to` before `issued_from` is refused.
 */
export const certificateListQueryObjectSchema = v.object({
  ...pagingQueryEntries,
  ...certificateFilterEntries,
});
export const certificateListQuerySchema = v.pipe(
  certificateListQueryObjectSchema,
  v.forward(
    v.check((query) => issuedRangeInOrder(query), 'endDateBeforeStartDate' satisfies ValidationCode),
    ['issued_to'],
  ),
);
export type CertificateListQuery = v.InferOutput<typeof certificateListQuerySchema>;
export type CertificateListQueryInput = v.InferInput<typeof certificateListQuerySchema>;
/** The list's filters without paging, as the console's address and the CSV export hold them. */
export type CertificateFilters = Omit<CertificateListQuery, 'limit' | 'offset' | 'sort'>;

/** `format` of GET certificate/export: one certificate (pem, der, p7b) or the filtered list (csv). */
export const CERTIFICATE_EXPORT_QUERY_FORMATS = [...CERTIFICATE_EXPORT_FORMATS, 'csv'] as const;

/**
 * GET certificate/export: `format=pem|der|p7b&id=…` one certificate (p7b with its chain), or
 * `format=csv` with the list's filters and sort, every page. `id` is required for the first three.
 */
export const certificateExportQueryObjectSchema = v.object({
  format: v.picklist(CERTIFICATE_EXPORT_QUERY_FORMATS, 'invalidValue' satisfies ValidationCode),
  id: v.optional(resourceIdSchema),
  ...certificateFilterEntries,
});
export const certificateExportQuerySchema = v.pipe(
  certificateExportQueryObjectSchema,
  v.forward(
    v.check((query) => query.format === 'csv' || query.id !== undefined, 'required' satisfies ValidationCode),
    ['id'],
  ),
  v.forward(
    v.check((query) => issuedRangeInOrder(query), 'endDateBeforeStartDate' satisfies ValidationCode),
    ['issued_to'],
  ),
);
export type CertificateExportQuery = v.InferOutput<typeof certificateExportQuerySchema>;

export const certificateIdParamsSchema = v.object({ id: resourceIdSchema });

/** POST certificate/{id}/revoke: why (RFC 5280 reasons); the version goes in If-Match. */
export const certificateRevokeSchema = v.object({
  reason: v.picklist(REVOCATION_REASONS, 'invalidValue' satisfies ValidationCode),
});
export type CertificateRevoke = v.InferOutput<typeof certificateRevokeSchema>;

/** One subject value: trimmed text without control characters. */
export const subjectTextSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.maxLength(256, 'tooLong' satisfies ValidationCode),
  v.regex(/^\P{Cc}*$/u, 'invalidValue' satisfies ValidationCode),
);
/** The most values a multi-value subject field takes (organizational units, e-mails, DNS names, UPNs). */
export const SUBJECT_LIST_MAX = 20;
const subjectList = v.pipe(
  v.array(subjectTextSchema, 'invalidType' satisfies ValidationCode),
  v.maxLength(SUBJECT_LIST_MAX, 'tooManyValues' satisfies ValidationCode),
);

const subjectEntries = Object.fromEntries(
  SUBJECT_FIELDS.map((field) => [
    field,
    v.optional(
      (MULTI_VALUE_SUBJECT_FIELDS as readonly SubjectField[]).includes(field)
        ? subjectList
        : subjectTextSchema,
    ),
  ]),
) as {
  [F in SubjectField]: v.OptionalSchema<
    F extends (typeof MULTI_VALUE_SUBJECT_FIELDS)[number] ? typeof subjectList : typeof subjectTextSchema,
    undefined
  >;
};

/** The most a PEM CSR may be: an RSA-4096 request is about 1.7 KB. */
export const CSR_MAX_LENGTH = 16_384;

/**
 * POST certificate: a certificate under one of the account's profiles, from a PKCS#10 request (PEM)
 * and the subject values the profile's policy allows (`subjectIssues`).
 */
export const certificateIssueSchema = v.object({
  profile_id: resourceIdSchema,
  csr: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.trim(),
    v.nonEmpty('required' satisfies ValidationCode),
    v.maxLength(CSR_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  ),
  ...subjectEntries,
});
export type CertificateIssue = v.InferOutput<typeof certificateIssueSchema>;
