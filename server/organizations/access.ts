import type { Kysely } from 'kysely';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { forbidden } from '../authorization/permissions.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access, Located } from '../resources/versioned-resource.ts';

/**
 * Answers 403 naming the permission the caller lacks: reading needs the view or the manage
 * permission, changing needs manage. Call it only once the object is known to be within the
 * caller's reach: before that, an object out of reach must stay indistinguishable from one that
 * does not exist (404).
 */
export function assertOrganizationPermission(principal: Principal, access: Access): void {
  const { permissions } = principal;
  if (permissions.has('MANAGE_ORGANIZATION')) return;
  if (access === 'view' && permissions.has('VIEW_ORGANIZATION')) return;
  throw forbidden(access === 'view' ? 'VIEW_ORGANIZATION' : 'MANAGE_ORGANIZATION');
}

/** `found` when its account is within the caller's reach; undefined (answered 404) otherwise. */
export async function withinReach<TRow>(
  db: Kysely<Database>,
  principal: Principal,
  found: Located<TRow> | undefined,
): Promise<Located<TRow> | undefined> {
  return found && (await canSeeAccount(db, principal, found.accountId)) ? found : undefined;
}

/**
 * The caller may see (or change) the organizations of `accountId`: 404 for an account that does
 * not exist or is out of reach, then 403 without the permission.
 */
export async function authorizeAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
  access: Access,
): Promise<void> {
  if (!(await canSeeAccount(db, principal, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
  assertOrganizationPermission(principal, access);
}
