import type { ProfilePolicy, RevocationReason } from '../../contract/certificate-policy.ts';
import type { Seat } from '../../contract/schemas/enrollments.ts';

/**
 * The key types a profile accepts, as the enrollment page hands them to the trust agent: the names of
 * the CA's own key algorithms (`RSA-2048`, `ECDSA-P256`).
 */
export function publicKeyTypes(policy: ProfilePolicy): string[] {
  return [
    ...policy.key_types.rsa.map((size) => `RSA-${size}`),
    ...policy.key_types.ec.map((curve) => `ECDSA-${curve.replace('-', '')}`),
  ];
}

/**
 * Why a cancelled enrollment's certificate is revoked (RFC 5280): a device's is taken out of
 * service (cessationOfOperation); a person's no longer stands for their tie to the account
 * (affiliationChanged), as when the person is deleted (decision 019).
 */
export function revocationReasonFor(seat: Pick<Seat, 'kind'>): RevocationReason {
  return seat.kind === 'device' ? 'cessationOfOperation' : 'affiliationChanged';
}
