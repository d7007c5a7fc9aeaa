import type { RevocationReason } from '../../contract/certificate-policy.ts';
import type { Seat } from '../../contract/schemas/enrollments.ts';

/**
 * Why a cancelled enrollment's certificate is revoked (RFC 5280): a device's is taken out of
 * service (cessationOfOperation); a person's no longer stands for their tie to the account
 * (affiliationChanged), as when the person is deleted (decision 019).
 */
export function revocationReasonFor(seat: Pick<Seat, 'kind'>): RevocationReason {
  return seat.kind === 'device' ? 'cessationOfOperation' : 'affiliationChanged';
}
