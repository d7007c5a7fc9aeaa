import type { Kysely } from 'kysely';
import type { RevocationReason } from '../../contract/certificate-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { ensureSystemAccount } from '../setup/seed.ts';
import { signCrl } from './crl.ts';

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
    .select(['id', 'issuer_id', 'account_id', 'revoked_at', 'serial_number', 'common_name'])
    .where('id', '=', request.certificateId)
    .forUpdate()
    .executeTakeFirst();
  if (certificate === undefined) {
    throw new ApiError(404, 'Certificate not found.');
  }
  if (certificate.revoked_at !== null) {
    throw new ApiError(409, 'The certificate is already revoked.');
  }
  const now = deps.now();
  const revokedBy = await trx.selectFrom('users').select('id').where('id', '=', actor.id).executeTakeFirst();
  await trx
    .updateTable('certificates')
    .set((eb) => ({
      revoked_at: now,
      revocation_reason: request.reason,
      revoked_by: revokedBy?.id ?? null,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', certificate.id)
    .execute();
  await signCrl(deps, trx, certificate.issuer_id);
  await auditChangeBy(trx, actor, deps, {
    action: 'UPDATE',
    resourceType: 'CERTIFICATE',
    resourceId: certificate.id,
    accountId: certificate.account_id ?? (await ensureSystemAccount(trx, now)),
    details: {
      changes: {
        status: { from: 'issued', to: 'revoked' },
        revocation_reason: { from: null, to: request.reason },
      },
    },
  });
}
