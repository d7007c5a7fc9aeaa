import type { Kysely } from 'kysely';
import type { CertificateFilters } from '../../contract/schemas/certificates.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { assertPermission } from '../authorization/permissions.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';

/**
 * Who may do what on issued certificates (decision 019). Reach is the account's (found first by the
 * repository, 404 outside it); reading needs view certificate, revoking revoke certificate.
 */
export function assertCertificateAccess(principal: Principal, access: Access): void {
  assertPermission(principal, access === 'view' ? 'VIEW_CERTIFICATE' : 'REVOKE_CERTIFICATE');
}

/** An account filter out of reach is 404, never an empty page; then the read permission. */
export async function assertListable(
  db: Kysely<Database>,
  principal: Principal,
  filters: CertificateFilters,
): Promise<void> {
  if (filters.account_id !== undefined) {
    if (!(await canSeeAccount(db, principal, filters.account_id))) {
      throw new ApiError(404, ACCOUNT_NOT_FOUND, { field: 'account_id' });
    }
  }
  assertCertificateAccess(principal, 'view');
}
