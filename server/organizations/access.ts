import type { Kysely } from 'kysely';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../accounts/access.ts';
import type { Database } from '../db/schema.ts';
import { forbidden } from '../http/authenticate.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/** Reading needs the view or the manage permission; changing needs manage. */
export type OrganizationAccess = 'view' | 'manage';

/**
 * Answers 403 naming the permission the caller lacks. Call it only once the object is known to be
 * within the caller's reach: before that, an object out of reach must stay indistinguishable from
 * one that does not exist (404).
 */
export function assertOrganizationPermission(principal: Principal, access: OrganizationAccess): void {
  const { permissions } = principal;
  if (permissions.has('MANAGE_ORGANIZATION')) return;
  if (access === 'view' && permissions.has('VIEW_ORGANIZATION')) return;
  throw forbidden(access === 'view' ? 'VIEW_ORGANIZATION' : 'MANAGE_ORGANIZATION');
}

/**
 * The caller may see (or change) the organizations of `accountId`: 404 for an account that does
 * not exist or is out of reach, then 403 without the permission.
 */
export async function authorizeAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
  access: OrganizationAccess,
): Promise<void> {
  if (!(await canSeeAccount(db, principal, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
  assertOrganizationPermission(principal, access);
}
