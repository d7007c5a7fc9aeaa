import type { Kysely } from 'kysely';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy, updateDetails } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';
import { dropWaitingEnrollmentMail } from '../mail/outbox.ts';
import { pendingEnrollmentsOfUsers, updateEnrollment } from './repository.ts';

/**
 * Cancels the pending enrollments of the seats of people about to be deleted, in the deletion's
 * transaction (decision 021 §1): their links stop working and their waiting mail is dropped. What
 * was issued to them is revoked by the deletion itself (`revokeCertificates`, decision 019); their
 * seats stay, without the person, as the history of their enrollments.
 */
export async function cancelPendingEnrollmentsOf(
  deps: Pick<AppDeps, 'now'>,
  trx: Kysely<Database>,
  actor: AuditActor,
  userIds: readonly string[],
): Promise<void> {
  const now = deps.now();
  for (const enrollment of await pendingEnrollmentsOfUsers(trx, userIds)) {
    await dropWaitingEnrollmentMail(trx, enrollment.id);
    await updateEnrollment(trx, enrollment.id, { status: 'cancelled', cancelled_at: now });
    await auditChangeBy(trx, actor, deps, {
      action: 'UPDATE',
      resourceType: 'ENROLLMENT',
      resourceId: enrollment.id,
      accountId: enrollment.account_id,
      details: updateDetails({ status: 'pending' }, { status: 'cancelled' }, ['status']),
    });
  }
}
