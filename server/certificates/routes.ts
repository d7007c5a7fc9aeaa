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
  certificateIssueSchema,
  certificateListQuerySchema,
  certificateRevokeSchema,
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

  app.get('/certificate', authenticated, validateQuery(certificateListQuerySchema), async (c) => {
    const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
    await assertListable(db, c.var.principal, filters);
    const list: CertificateList = await listCertificates(db, c.var.principal, filters, page, deps.now());
    return c.json(list);
  });

  // Before `certificate/:id`, which would otherwise take `export` for an id.
  app.get('/certificate/export', authenticated, validateQuery(certificateExportQuerySchema), async (c) => {
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
  });

  async function exportOne(c: Context<AppEnv>, row: ReachableCertificate, format: CertificateExportFormat) {
    const chain = format === 'der' ? [] : await issuerChain(db, row.issuer_id);
    const { body, contentType, extension } = exportCertificate(row.der, chain, format);
    c.header('Content-Type', contentType);
    c.header('Content-Disposition', `attachment; filename="${exportFilename(row, extension)}"`);
    c.header('ETag', entityTag(row.version));
    return c.body(typeof body === 'string' ? body : new Uint8Array(body), 200);
  }

  // A certificate under one of the account's profiles, from a CSR (decision 019).
  app.post('/certificate', authenticated, validateJson(certificateIssueSchema), async (c) => {
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
  });

  app.get('/certificate/:id', authenticated, params, (c) => certificates.read(c, c.req.valid('param')));

  app.post('/certificate/:id/revoke', authenticated, params, validateJson(certificateRevokeSchema), (c) => {
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
  });

  return app;
}
