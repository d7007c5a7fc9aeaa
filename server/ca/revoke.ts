import type { Kysely } from 'kysely';
import type { RevocationReason } from '../../contract/certificate-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AuditActor } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';

/**
 * Revokes one issued certificate with a reason, in the caller's transaction, re-signs its CA's CRL
 * in the same transaction and records the audit event (UPDATE CERTIFICATE, status issued → revoked).
 * A certificate already revoked answers 409 `conflict`; nothing changes.
 */
export async function revokeCertificate(
  _deps: AppDeps,
  _trx: Kysely<Database>,
  _actor: AuditActor,
  _request: { certificateId: string; reason: RevocationReason },
): Promise<void> {
  throw new Error('The issuing CA is not wired yet.');
}
