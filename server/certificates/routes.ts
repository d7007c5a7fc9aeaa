import type { Context } from 'hono';
import { Hono } from 'hono';
import type { SubjectValues } from '../../contract/certificate-policy.ts';
import { SUBJECT_FIELDS } from '../../contract/certificate-policy.ts';
import { apiPaths } from '../../contract/paths.ts';
import type { CertificateExportFormat } from '../../contract/schemas/certificate-authority.ts';
import {
  type Certificate,
  type CertificateIssued,
  type CertificateList,
  certificateExportQuerySchema,
  certificateIdParamsSchema,
  certificateIssuedSchema,
  certificateIssueSchema,
  certificateListQuerySchema,
  certificateListSchema,
  certificateRevokeSchema,
  certificateSchema,
} from '../../contract/schemas/certificates.ts';
import type { AppDeps } from '../app-deps.ts';
import { requestActor } from '../audit/change.ts';
import { assertPermission } from '../authorization/permissions.ts';
import {
  certificatePem,
  describeCertificate,
  exportCertificate,
  issueCertificate,
  revokeCertificate,
} from '../ca/index.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { AppEnv } from '../http/app-env.ts';
import { writtenCsvResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertCertificateAccess, assertListable } from './access.ts';
import { CERTIFICATE_CSV_HEADER } from './csv.ts';
import { certificateCsvBody } from './export.ts';
import {
  certificateSummary,
  DEFAULT_SORT,
  findReachableCertificate,
  findReachableProfile,
  issuerChain,
  listCertificates,
  type ReachableCertificate,
} from './repository.ts';

/** The GET answer of one certificate: the row, its parsed details and its PEM. */
async function certificateRecord(row: ReachableCertificate, now: Date): Promise<Certificate> {
  const { der, issuer_id: _issuer, account_id: _account, ...summary } = row;
  return { ...summary, details: await describeCertificate(der, now), pem: certificatePem(der) };
}

/** A certificate as the versioned-resource helper addresses it; out of reach is not found. */
function certificateKind(deps: AppDeps): ResourceKind<{ id: string }, ReachableCertificate> {
  return {
    label: 'Certificate',
    resourceType: 'CERTIFICATE',
    find: async (db, principal, { id }, lock) => {
      const row = await findReachableCertificate(db, principal, id, lock, deps.now());
      // Without an account only the system scope reaches it; the trail files it under no account.
      return row && { row, accountId: row.account_id ?? '' };
    },
    authorize: (principal, _found, access) => assertCertificateAccess(principal, access),
    represent: async (_db, _principal, { row }) => certificateRecord(row, deps.now()),
  };
}

/** A file name made of the common name and the serial: letters, digits, dots, dashes, underscores. */
function exportFilename(row: ReachableCertificate, extension: string): string {
  const name = row.common_name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 64);
  return `${name ? `${name}-` : ''}${row.serial_number}.${extension}`;
}

/** The subject values of an issue request, as the issuing CA takes them. */
function subjectValuesOf(body: Record<string, unknown>): SubjectValues {
  const values: Record<string, unknown> = {};
  for (const field of SUBJECT_FIELDS) if (body[field] !== undefined) values[field] = body[field];
  return values as SubjectValues;
}

/** Certificates the platform CA issued (/certificate-authority/api/v1, decision 019). */
export function certificateRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const certificates = versionedResource(deps, certificateKind(deps));
  const params = validateParams(certificateIdParamsSchema);

  app.get(
    '/certificate',
    describeOperation({
      tag: 'Certificates',
      summary:
        'The certificates the platform CA issued in the accounts the caller reaches (view certificate; certificates whose account is gone, system scope only), filtered by q (common name or serial), status (issued, revoked, expired), account_id, profile_id, source and the days issued (issued_from, issued_to, UTC), sorted and a page at a time; an account filter out of reach is 404.',
      success: { status: 200, description: 'Certificates', schema: certificateListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(certificateListQuerySchema),
    async (c) => {
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      await assertListable(db, c.var.principal, filters);
      const list: CertificateList = await listCertificates(db, c.var.principal, filters, page, deps.now());
      return c.json(list);
    },
  );

  // Before `certificate/:id`, which would otherwise take `export` for an id.
  app.get(
    '/certificate/export',
    describeOperation({
      tag: 'Certificates',
      summary:
        'format=pem|der|p7b with id: one certificate as an attachment (PEM, the certificate then the issuing CA and the root; DER, the certificate alone, application/pkix-cert; PKCS#7 certs-only DER with the issuing CA and the root, application/pkcs7-mime). format=csv with the list filters and sort: every matching certificate as a CSV attachment (text/csv). View certificate.',
      success: { status: 200, description: 'The certificate file, or a CSV file with its header row first' },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(certificateExportQuerySchema),
    async (c) => {
      const { format, id, sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      const principal = c.var.principal;
      const now = deps.now();
      if (format === 'csv') {
        await assertListable(db, principal, filters);
        return writtenCsvResponse(c, {
          header: CERTIFICATE_CSV_HEADER,
          body: certificateCsvBody(db, principal, filters, sort, now),
          filename: `certificates-${utcDate(now)}.csv`,
        });
      }
      // The schema requires `id` for every other format.
      const { row } = await certificates.locate(db, principal, { id: id ?? '' }, 'view', false);
      return exportOne(c, row, format);
    },
  );

  async function exportOne(c: Context<AppEnv>, row: ReachableCertificate, format: CertificateExportFormat) {
    const chain = format === 'der' ? [] : await issuerChain(db, row.issuer_id);
    const { body, contentType, extension } = exportCertificate(row.der, chain, format);
    c.header('Content-Type', contentType);
    c.header('Content-Disposition', `attachment; filename="${exportFilename(row, extension)}"`);
    c.header('ETag', entityTag(row.version));
    return c.body(typeof body === 'string' ? body : new Uint8Array(body), 200);
  }

  // A certificate under one of the account's profiles, from a CSR (decision 019).
  app.post(
    '/certificate',
    describeOperation({
      tag: 'Certificates',
      summary:
        "Issues a certificate under one of the account's profiles (manage enrollment; the profile within reach) from a PKCS#10 request (PEM) and the subject values its policy allows; the CSR's own subject and extensions are never copied. A bad CSR, a weak or refused key or a subject against the policy is 400 naming the field.",
      success: {
        status: 201,
        description: 'Certificate issued, with its chain (issuing CA, root), PEM',
        schema: certificateIssuedSchema,
        etag: true,
      },
      failures: [400, 403, 404, 413, 415],
    }),
    authenticated,
    validateJson(certificateIssueSchema),
    async (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const now = deps.now();
      const issued: CertificateIssued = await db.transaction().execute(async (trx) => {
        const profile = await findReachableProfile(trx, principal, body.profile_id);
        if (!profile) throw new ApiError(404, 'Profile not found.', { field: 'profile_id' });
        assertPermission(principal, 'MANAGE_ENROLLMENT');
        const result = await issueCertificate(deps, trx, requestActor(c, deps.config), {
          csr: body.csr,
          policy: profile.policy,
          subject: subjectValuesOf(body),
          accountId: profile.account_id,
          profile: { id: profile.id, name: profile.name },
          source: 'profile',
          ownerUserId: null,
        });
        const summary = await certificateSummary(trx, result.row.id, now);
        if (!summary) throw new Error('A certificate just issued is gone.');
        return { ...summary, pem: result.pem, chain: result.chain };
      });
      c.header('Location', apiPaths.certificates.byId(issued.id));
      c.header('ETag', entityTag(issued.version));
      return c.json(issued, 201);
    },
  );

  app.get(
    '/certificate/:id',
    describeOperation({
      tag: 'Certificates',
      summary:
        'A certificate the caller reaches (view certificate), with its parsed details (issuer, subject, validity, version, fingerprints, algorithms) and its PEM; ETag is its version.',
      success: { status: 200, description: 'Certificate', schema: certificateSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    params,
    (c) => certificates.read(c, c.req.valid('param')),
  );

  app.post(
    '/certificate/:id/revoke',
    describeOperation({
      tag: 'Certificates',
      summary:
        "Revokes a certificate with an RFC 5280 reason (revoke certificate); its CA's CRL is signed again at once. One already revoked is 409 conflict. If-Match is required.",
      success: { status: 204, description: 'Certificate revoked', etag: true },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: certificateSchema },
    }),
    authenticated,
    params,
    validateJson(certificateRevokeSchema),
    (c) => {
      const { reason } = c.req.valid('json');
      return certificates.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: ({ row }) => {
          if (row.revoked_at !== null) throw new ApiError(409, 'The certificate is already revoked.');
        },
        // The CA re-signs its CRL and records the event (UPDATE CERTIFICATE) in this transaction.
        apply: async (trx, { row }) => {
          await revokeCertificate(deps, trx, requestActor(c, deps.config), { certificateId: row.id, reason });
          return null;
        },
      });
    },
  );

  return app;
}
