import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
  type ClientAuthCertificate,
  type ClientAuthGenerated,
  clientAuthCertificateListQuerySchema,
  clientAuthCertificateListSchema,
  clientAuthCertificateParamsSchema,
  clientAuthCertificateSchema,
  clientAuthEnableSchema,
  clientAuthGeneratedSchema,
  clientAuthGenerateSchema,
  clientAuthUploadSchema,
} from '../../contract/schemas/client-auth.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import { userIdParamsSchema } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, requestActor, updateDetails } from '../audit/change.ts';
import { USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { parseWith, validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth, sessionIdOf } from '../identity/authenticate.ts';
import { assertNotJustSent, enqueueMail } from '../mail/outbox.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import {
  assertMayRegister,
  type CertificateOwner,
  type CertificateOwners,
  PERSON_CERTIFICATE_OWNERS,
} from './access.ts';
import { issueClientAuthCertificate, registerClientAuthCertificate } from './issue.ts';
import {
  findClientAuthCertificate,
  findOwnerAddress,
  fingerprintTaken,
  listClientAuthCertificates,
  setClientAuthEnabled,
} from './repository.ts';
import {
  assertCurrentlyValid,
  certificateInUse,
  commonNameOf,
  type ReadCertificate,
  readCertificateFile,
  readCertificateText,
} from './rules.ts';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** What POST …/client-auth-certificate asks for: an issuance from a CSR, or the registration of a certificate. */
type PostRequest = { kind: 'generate'; csr: string } | { kind: 'upload'; certificate: ReadCertificate };

/**
 * The body of POST …/client-auth-certificate, by its media type: the raw certificate file
 * (`application/x-x509-ca-cert`, at most 4 KB, limited before it is read: server/app.ts), or JSON
 * `{ csr }` (generate) or `{ certificate }` (upload). Only input is judged here (400, 413, 415).
 */
async function readPost(c: Context<AppEnv>): Promise<PostRequest> {
  const mediaType = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === CLIENT_AUTH_UPLOAD_MEDIA_TYPE) {
    return { kind: 'upload', certificate: readCertificateFile(new Uint8Array(await c.req.arrayBuffer())) };
  }
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError(
      415,
      `Request body must be JSON (Content-Type: application/json) or a certificate (Content-Type: ${CLIENT_AUTH_UPLOAD_MEDIA_TYPE}).`,
    );
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'Request body is not valid JSON.', { code: 'malformed' });
  }
  if (typeof body === 'object' && body !== null && 'csr' in body) {
    return { kind: 'generate', csr: parseWith(clientAuthGenerateSchema, body).csr };
  }
  const { certificate } = parseWith(clientAuthUploadSchema, body);
  return { kind: 'upload', certificate: readCertificateText(certificate) };
}

/** A certificate with its owner, whose reach and permissions decide who may see or change it. */
type OwnedCertificate = ClientAuthCertificate & { owner: CertificateOwner };

function certificateKind(
  deps: AppDeps,
  owners: CertificateOwners,
): ResourceKind<{ id: string; certId: string }, OwnedCertificate> {
  return {
    label: 'Client-authentication certificate',
    resourceType: 'CLIENT_AUTH_CERT',
    find: async (db, principal, { id, certId }, lock) => {
      const owner = await owners.find(db, principal, id, lock);
      const found = owner && (await findClientAuthCertificate(db, owner.id, certId, deps.now(), lock));
      return found && { row: { ...found, owner }, accountId: owner.primary_account_id };
    },
    authorize: (principal, { row }, access) => owners.authorize(principal, row.owner, access),
    represent: async (_db, _principal, { row: { owner: _owner, ...certificate } }) => certificate,
  };
}

/**
 * Client-authentication certificates of people (`user/{id}/client-auth-certificate`) or of service
 * users (`service-user/{id}/client-auth-certificate`), decision 019; for people also
 * `user/{id}/sendSetupCacBasedLoginEmail` (O-21). Described in docs/api.md.
 */
export function clientAuthRoutes(
  deps: AppDeps,
  owners: CertificateOwners = PERSON_CERTIFICATE_OWNERS,
): Hono<AppEnv> {
  const { db } = deps;
  const LIST = `${owners.prefix}/:id/client-auth-certificate`;
  const ENABLE = `${owners.prefix}/:id/client-auth-certificate/:certId/enable`;
  const authenticated = requireAuth(deps);
  const certificates = versionedResource(deps, certificateKind(deps, owners));
  const userParams = validateParams(userIdParamsSchema);

  const app = new Hono<AppEnv>()
    .get(
      LIST,
      describeOperation({
        tag: owners.reference.tag,
        summary: owners.reference.list,
        success: {
          status: 200,
          description: 'Client-authentication certificates',
          schema: clientAuthCertificateListSchema,
        },
        failures: [400, 403, 404],
      }),
      authenticated,
      userParams,
      validateQuery(clientAuthCertificateListQuerySchema),
      async (c) => {
        const owner = await owners.find(db, c.var.principal, c.req.valid('param').id, false);
        if (!owner) throw new ApiError(404, USER_NOT_FOUND);
        owners.authorize(c.var.principal, owner, 'view');
        const { limit = DEFAULT_LIST_LIMIT, offset = 0 } = c.req.valid('query');
        return c.json(await listClientAuthCertificates(db, owner.id, { limit, offset }, deps.now()));
      },
    )
    .post(
      LIST,
      describeOperation({
        tag: owners.reference.tag,
        summary: owners.reference.register,
        body: {
          description:
            'JSON { csr } (generate: the platform CA issues; the answer adds certificate and chain, PEM) or { certificate } (upload: PEM text or base64 DER), or the certificate file itself, PEM or DER, with Content-Type application/x-x509-ca-cert, at most 4096 bytes.',
          json: v.union([clientAuthGenerateSchema, clientAuthUploadSchema]),
          media: CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
        },
        success: {
          status: 201,
          description: 'Certificate registered; after generation with the certificate and its chain',
          schema: v.union([clientAuthGeneratedSchema, v.object({ item: clientAuthCertificateSchema })]),
          etag: true,
        },
        failures: [400, 403, 404, 409, 413, 415],
      }),
      authenticated,
      userParams,
      async (c) => {
        const request = await readPost(c);
        const principal = c.var.principal;
        const now = deps.now();
        const answer = await db.transaction().execute(async (trx) => {
          const owner = await owners.find(trx, principal, c.req.valid('param').id, true);
          if (!owner) throw new ApiError(404, USER_NOT_FOUND);
          assertMayRegister(owners, principal, owner);
          const actor = requestActor(c, deps.config);

          if (request.kind === 'upload') {
            const { der, x509 } = request.certificate;
            const fingerprint = x509.fingerprint256;
            if (await fingerprintTaken(trx, owner.id, fingerprint)) throw certificateInUse();
            assertCurrentlyValid(x509, now);
            const item = await registerClientAuthCertificate(trx, deps, actor, owner, now, {
              source: 'uploaded',
              certificateId: null,
              der,
              commonName: commonNameOf(x509),
              notAfter: new Date(x509.validTo),
              fingerprint,
            });
            return { item };
          }

          const { item, issued } = await issueClientAuthCertificate(
            trx,
            deps,
            actor,
            owner,
            request.csr,
            now,
          );
          return { item, certificate: issued.pem, chain: issued.chain } satisfies ClientAuthGenerated;
        });
        c.header('ETag', entityTag(answer.item.version));
        return c.json(answer, 201);
      },
    )
    .put(
      ENABLE,
      describeOperation({
        tag: owners.reference.tag,
        summary:
          'Enables or disables a client-authentication certificate (If-Match required); a disabled one signs nobody in from the next attempt. Enabling needs a signed-in session (403 sessionRequired).',
        success: { status: 204, description: 'Enabled or disabled', etag: true },
        failures: [400, 403, 404, 413, 415, 428],
        ifMatch: { required: true, current: clientAuthCertificateSchema },
      }),
      authenticated,
      validateParams(clientAuthCertificateParamsSchema),
      validateJson(clientAuthEnableSchema),
      (c) => {
        const { enabled } = c.req.valid('json');
        return certificates.change(c, c.req.valid('param'), {
          precondition: 'required',
          // Enabling gives the certificate back its power to sign in: a credential, made in a session.
          permit: () => {
            if (enabled) sessionIdOf(c.var.principal);
          },
          apply: async (trx, { row }) => {
            if (row.enabled === enabled) return null;
            await setClientAuthEnabled(trx, row.id, enabled);
            return {
              action: 'UPDATE',
              details: updateDetails({ enabled: row.enabled }, { enabled }, ['enabled']),
            };
          },
        });
      },
    );

  if (owners.prefix === '/user') {
    // O-21: tells the person certificate sign-in is being set up for them, with a link to their
    // own certificates. Whoever may change the person's certificates may send it.
    app.post(
      '/user/:id/sendSetupCacBasedLoginEmail',
      describeOperation({
        tag: 'Client-authentication certificates',
        summary:
          'Mails a person that certificate sign-in is being set up for them, with a link to their own client-certificate page (whoever may change the person). 429 with Retry-After within a minute of the last.',
        success: { status: 204, description: 'Mail queued' },
        failures: [400, 403, 404, 429],
      }),
      authenticated,
      userParams,
      async (c) => {
        const principal = c.var.principal;
        const now = deps.now();
        await db.transaction().execute(async (trx) => {
          const owner = await owners.find(trx, principal, c.req.valid('param').id, true);
          if (!owner) throw new ApiError(404, USER_NOT_FOUND);
          owners.authorize(principal, owner, 'manage');
          await assertNotJustSent(trx, c, owner.id, 'client_auth_setup', now);
          const { email } = await findOwnerAddress(trx, owner.id);
          await enqueueMail(trx, {
            kind: 'client_auth_setup',
            userId: owner.id,
            to: email,
            requestedBy: principal.userId,
            now,
          });
          await auditChange(trx, c, deps, {
            action: 'SEND_CLIENT_AUTH_SETUP',
            resourceType: 'CLIENT_AUTH_CERT',
            resourceId: owner.id,
            accountId: owner.primary_account_id,
            details: { user_id: owner.id },
          });
        });
        deps.mail.nudge();
        return c.body(null, 204);
      },
    );
  }
  return app;
}
