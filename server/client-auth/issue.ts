import { X509Certificate } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CLIENT_AUTH_POLICY } from '../../contract/certificate-policy.ts';
import type { ClientAuthCertificate } from '../../contract/schemas/client-auth.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy } from '../audit/change.ts';
import { type IssuedCertificate, issueCertificate } from '../ca/index.ts';
import type { Database } from '../db/schema.ts';
import { insertClientAuthCertificate, subjectFactsOf } from './repository.ts';

/**
 * What the client-authentication domain offers the others (decision 019, decision 033): registering
 * a certificate for a user and issuing one from a CSR, each with its audit events in the caller's
 * transaction. The routes of a user's own certificates and the enrollee's link both come here, so a
 * certificate that signs a person in is made and recorded one way whoever asks for it.
 */

/** The user a certificate is for: their id and primary account, whose trail records it. */
export interface ClientAuthOwner {
  id: string;
  primary_account_id: string;
}

/** Stores a certificate for `owner`, uploaded or just issued, and records its creation. */
export async function registerClientAuthCertificate(
  trx: Kysely<Database>,
  deps: Pick<AppDeps, 'now'>,
  actor: AuditActor,
  owner: ClientAuthOwner,
  now: Date,
  certificate: Omit<Parameters<typeof insertClientAuthCertificate>[1], 'userId' | 'createdBy'>,
): Promise<ClientAuthCertificate> {
  const item = await insertClientAuthCertificate(
    trx,
    { ...certificate, userId: owner.id, createdBy: actor.id },
    now,
  );
  await auditChangeBy(trx, actor, deps, {
    action: 'CREATE',
    resourceType: 'CLIENT_AUTH_CERT',
    resourceId: item.id,
    accountId: owner.primary_account_id,
    details: {
      user_id: owner.id,
      source: certificate.source,
      ...(certificate.certificateId === null ? {} : { certificate_id: certificate.certificateId }),
      common_name: item.common_name,
      sha256_fingerprint: certificate.fingerprint,
    },
  });
  return item;
}

/**
 * Issues a client-authentication certificate for `owner` from a CSR under CLIENT_AUTH_POLICY and
 * registers it. The subject is the user's, whatever the CSR says: its key is all that is taken from
 * it, and the key stays wherever the CSR was made. The caller has judged who may ask.
 */
export async function issueClientAuthCertificate(
  trx: Kysely<Database>,
  deps: AppDeps,
  actor: AuditActor,
  owner: ClientAuthOwner,
  csr: string,
  now: Date,
): Promise<{ item: ClientAuthCertificate; issued: IssuedCertificate }> {
  const facts = await subjectFactsOf(trx, owner.id);
  const issued = await issueCertificate(deps, trx, actor, {
    csr,
    policy: CLIENT_AUTH_POLICY,
    subject: {
      common_name: facts.user_name,
      organization_name: facts.account_name,
      ...(facts.kind === 'person' && facts.email !== '' ? { emails: [facts.email] } : {}),
    },
    accountId: owner.primary_account_id,
    profile: null,
    source: 'client_auth',
    ownerUserId: owner.id,
  });
  const der = new Uint8Array(issued.row.certificate);
  const item = await registerClientAuthCertificate(trx, deps, actor, owner, now, {
    source: 'issued',
    certificateId: issued.row.id,
    der,
    commonName: issued.row.common_name,
    notAfter: issued.row.not_after,
    fingerprint: new X509Certificate(der).fingerprint256,
  });
  return { item, issued };
}
