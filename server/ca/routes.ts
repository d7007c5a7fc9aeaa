import { Hono } from 'hono';
import type { Selectable } from 'kysely';
import * as v from 'valibot';
import type { CaKeyAlgorithm } from '../../contract/certificate-policy.ts';
import type {
  CertificateAuthority,
  CertificateAuthorityList,
} from '../../contract/schemas/certificate-authority.ts';
import {
  certificateAuthorityListSchema,
  certificateAuthoritySchema,
} from '../../contract/schemas/certificate-authority.ts';
import { resourceIdSchema } from '../../contract/schemas/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { assertAnyPermission } from '../authorization/permissions.ts';
import type { CertificateAuthoritiesTable } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateParams } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { describeCertificate } from './describe.ts';
import { certificatePem } from './export.ts';
import {
  findCaCertificate,
  findCertificateAuthority,
  findPublishedCrl,
  listActiveCertificateAuthorities,
} from './repository.ts';
import { caCertificateUrl, crlUrl } from './urls.ts';

const caIdParamsSchema = v.object({ id: resourceIdSchema });

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** A CA as its page shows it: parsed certificate, where it is published, its CRL's state. */
export async function certificateAuthorityView(
  deps: Pick<AppDeps, 'config' | 'now'>,
  row: Selectable<CertificateAuthoritiesTable>,
): Promise<CertificateAuthority> {
  return {
    id: row.id,
    kind: row.kind,
    key_algorithm: row.key_algorithm as CaKeyAlgorithm,
    key_custody: row.key_custody,
    details: await describeCertificate(row.certificate, deps.now()),
    certificate_url: caCertificateUrl(deps.config, row.id),
    crl_url: row.crl === null ? null : crlUrl(deps.config, row.id),
    crl_number: Number(row.crl_number),
    crl_this_update: iso(row.crl_this_update),
    crl_next_update: iso(row.crl_next_update),
    created_at: new Date(row.created_at).toISOString(),
  };
}

function notFound(): ApiError {
  return new ApiError(404, 'Certificate authority not found.');
}

/**
 * The platform's CAs (decision 019): the working ones and one by id for VIEW_CA or MANAGE_CA; their
 * certificates (DER and PEM) and CRLs for anyone, since relying parties fetch them from the
 * addresses written in every certificate, with no session.
 */
export function certificateAuthorityRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const params = validateParams(caIdParamsSchema);

  app.get(
    '/ca',
    describeOperation({
      tag: 'Certificate authority',
      summary:
        "The platform's working CAs (root and issuing) with their parsed certificates, publication addresses and CRL state; needs view CA or manage CA.",
      success: { status: 200, description: 'Working CAs', schema: certificateAuthorityListSchema },
      failures: [403],
    }),
    authenticated,
    async (c) => {
      assertAnyPermission(c.var.principal, ['VIEW_CA', 'MANAGE_CA']);
      const rows = await listActiveCertificateAuthorities(deps.db);
      const items = await Promise.all(rows.map((row) => certificateAuthorityView(deps, row)));
      const body: CertificateAuthorityList = { items, total: items.length };
      return c.json(body);
    },
  );

  app.get(
    '/ca/:id',
    describeOperation({
      tag: 'Certificate authority',
      summary:
        'One CA, working or retired; 404 when none has this id, then 403 without view CA or manage CA.',
      success: { status: 200, description: 'The CA', schema: certificateAuthoritySchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    params,
    async (c) => {
      const row = await findCertificateAuthority(deps.db, c.req.valid('param').id);
      if (row === undefined) throw notFound();
      assertAnyPermission(c.var.principal, ['VIEW_CA', 'MANAGE_CA']);
      return c.json(await certificateAuthorityView(deps, row));
    },
  );

  const certificate = async (id: string) => {
    const row = await findCaCertificate(deps.db, id);
    if (row === undefined) throw notFound();
    return row.certificate;
  };
  // A CA certificate never changes: a day of caching, revalidated by its ETag-free URL's content.
  const CERTIFICATE_CACHE = 'public, max-age=86400';

  app.get(
    '/ca/:id/certificate.crt',
    describeOperation({
      tag: 'Certificate authority',
      summary: "Public: the CA's certificate, DER (application/pkix-cert), the address of AIA caIssuers.",
      success: { status: 200, description: 'CA certificate (DER)', binary: 'application/pkix-cert' },
      failures: [400, 404],
    }),
    params,
    async (c) => {
      const der = await certificate(c.req.valid('param').id);
      c.header('Content-Type', 'application/pkix-cert');
      c.header('Cache-Control', CERTIFICATE_CACHE);
      return c.body(Buffer.from(der));
    },
  );

  app.get(
    '/ca/:id/certificate.pem',
    describeOperation({
      tag: 'Certificate authority',
      summary: "Public: the CA's certificate, PEM.",
      success: { status: 200, description: 'CA certificate (PEM)', binary: 'application/x-pem-file' },
      failures: [400, 404],
    }),
    params,
    async (c) => {
      const der = await certificate(c.req.valid('param').id);
      c.header('Content-Type', 'application/x-pem-file');
      c.header('Cache-Control', CERTIFICATE_CACHE);
      return c.body(certificatePem(der));
    },
  );

  // Hono names the parameter after the whole segment, `id.crl`.
  app.get(
    '/crl/:id.crl',
    describeOperation({
      tag: 'Certificate authority',
      summary:
        "Public: the CA's current CRL, DER (application/pkix-crl), the CRL distribution point of what it signs; cached until its nextUpdate, an hour at most.",
      success: { status: 200, description: 'CRL (DER)', binary: 'application/pkix-crl' },
      failures: [404],
    }),
    async (c) => {
      const segment = c.req.param()['id.crl'] ?? '';
      const id = segment.endsWith('.crl') ? segment.slice(0, -'.crl'.length) : '';
      if (!v.is(resourceIdSchema, id)) throw notFound();
      const row = await findPublishedCrl(deps.db, id);
      if (row?.crl == null) throw notFound();
      const now = deps.now().getTime();
      const nextUpdate = row.crl_next_update === null ? now : new Date(row.crl_next_update).getTime();
      // Cached until it is re-signed at the latest; a revocation replaces it sooner, so at most an hour.
      const maxAge = Math.max(0, Math.min(3600, Math.floor((nextUpdate - now) / 1000)));
      c.header('Content-Type', 'application/pkix-crl');
      c.header('Cache-Control', `public, max-age=${maxAge}`);
      c.header('Expires', new Date(nextUpdate).toUTCString());
      if (row.crl_this_update !== null) {
        c.header('Last-Modified', new Date(row.crl_this_update).toUTCString());
      }
      return c.body(Buffer.from(row.crl));
    },
  );

  return app;
}
