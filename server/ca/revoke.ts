import type { Kysely } from 'kysely';
import type { RevocationReason } from '../../contract/certificate-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';
import { ensureSystemAccount } from '../db/system-account.ts';
import { ApiError } from '../http/errors.ts';
import { signCrl } from './crl.ts';

/** The facts of a certificate row a revocation writes and records. */
interface RevocableCertificate {
  id: string;
  issuer_id: string;
  account_id: string | null;
}

/**
 * Which certificates a batch revocation takes: those owned by the users `ids` (`owner_user_id`),
 * those of the accounts `ids` (`account_id`), or the certificates `ids` themselves.
 */
export interface CertificateSelection {
  where: 'owner' | 'account' | 'certificate';
  ids: readonly string[];
  reason: RevocationReason;
}

const COLUMN = { owner: 'owner_user_id', account: 'account_id', certificate: 'id' } as const;

/**
 * Revokes one issued certificate with a reason, in the caller's transaction, re-signs its CA's CRL
 * in the same transaction and records the audit event (UPDATE CERTIFICATE, status issued → revoked).
 * A certificate already revoked answers 409 `conflict`; nothing changes. An unknown id answers 404.
 * The certificate's row is locked first, so two revocations of one certificate make one event.
 */
export async function revokeCertificate(
  deps: AppDeps,
  trx: Kysely<Database>,
  actor: AuditActor,
  request: { certificateId: string; reason: RevocationReason },
): Promise<void> {
  const certificate = await trx
    .selectFrom('certificates')
    .select(['id', 'issuer_id', 'account_id', 'revoked_at'])
    .where('id', '=', request.certificateId)
    .forUpdate()
    .executeTakeFirst();
  if (certificate === undefined) {
    throw new ApiError(404, 'Certificate not found.');
  }
  if (certificate.revoked_at !== null) {
    throw new ApiError(409, 'The certificate is already revoked.');
  }
  await revokeLocked(deps, trx, actor, [{ ...certificate, reason: request.reason }]);
}

/**
 * Revokes every certificate of the `selections` not revoked yet, each with its selection's reason
 * (the first selection that takes a certificate gives it its reason), in the caller's transaction:
 * what deleting a person, a service user or an account takes with it (decision 019, "Revocation when
 * people and accounts go"). Each certificate gets the audit event of `revokeCertificate`; each CA
 * that issued one of them re-signs its CRL once, whatever their number. A certificate revoked before
 * keeps its reason and date. Answers the ids it revoked.
 *
 * Call it before deleting the owner or the account: the foreign keys set `owner_user_id` and
 * `account_id` to null on delete, and the rows stay, so the CRLs keep listing them.
 */
export async function revokeCertificates(
  deps: AppDeps,
  trx: Kysely<Database>,
  actor: AuditActor,
  ...selections: readonly CertificateSelection[]
): Promise<string[]> {
  const taken = new Map<string, RevocableCertificate & { reason: RevocationReason }>();
  for (const selection of selections) {
    if (selection.ids.length === 0) continue;
    // Locked in one order, so two batches that share certificates never wait on each other in a
    // circle; a row another transaction revokes meanwhile is read again once it commits, and left out.
    const certificates = await trx
      .selectFrom('certificates')
      .select(['id', 'issuer_id', 'account_id'])
      .where(COLUMN[selection.where], 'in', [...new Set(selection.ids)])
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const certificate of certificates) {
      if (!taken.has(certificate.id)) taken.set(certificate.id, { ...certificate, reason: selection.reason });
    }
  }
  await revokeLocked(deps, trx, actor, [...taken.values()]);
  return [...taken.keys()];
}

/** The one write of a revocation: rows already locked and known unrevoked. */
async function revokeLocked(
  deps: AppDeps,
  trx: Kysely<Database>,
  actor: AuditActor,
  certificates: readonly (RevocableCertificate & { reason: RevocationReason })[],
): Promise<void> {
  if (certificates.length === 0) return;
  const now = deps.now();
  const revokedBy = await trx.selectFrom('users').select('id').where('id', '=', actor.id).executeTakeFirst();
  for (const reason of new Set(certificates.map((certificate) => certificate.reason))) {
    await trx
      .updateTable('certificates')
      .set((eb) => ({
        revoked_at: now,
        revocation_reason: reason,
        revoked_by: revokedBy?.id ?? null,
        version: eb('version', '+', 1),
      }))
      .where(
        'id',
        'in',
        certificates
          .filter((certificate) => certificate.reason === reason)
          .map((certificate) => certificate.id),
      )
      .execute();
  }
  for (const issuerId of [...new Set(certificates.map((certificate) => certificate.issuer_id))].sort()) {
    await signCrl(deps, trx, issuerId);
  }
  // A certificate of no account (its account deleted before) is recorded in the system account's trail.
  const systemAccount = certificates.some((certificate) => certificate.account_id === null)
    ? await ensureSystemAccount(trx, now)
    : null;
  for (const certificate of certificates) {
    await auditChangeBy(trx, actor, deps, {
      action: 'UPDATE',
      resourceType: 'CERTIFICATE',
      resourceId: certificate.id,
      accountId: certificate.account_id ?? systemAccount ?? '',
      details: {
        changes: {
          status: { from: 'issued', to: 'revoked' },
          revocation_reason: { from: null, to: certificate.reason },
        },
      },
    });
  }
}
