import type { Kysely } from 'kysely';
import type { AccessScope } from '../../contract/permissions.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { ROLE_NOT_FOUND, reachesAccount, roleReach } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/** A role as giving it to a user needs it: G5 reads its permissions, G6 its code, account and state. */
export interface RoleToGive {
  id: string;
  name: string;
  code: string | null;
  account_id: string | null;
  archived: boolean;
  built_in: boolean;
  permissions: string[];
}

/**
 * The roles of `ids` the caller reaches (G1); any other is answered 404 on `field`, like a missing
 * one, so a foreign role's existence is not told.
 */
export async function rolesInReach(
  db: Kysely<Database>,
  principal: Parameters<typeof roleReach>[0],
  ids: readonly string[],
  field: string,
): Promise<RoleToGive[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'code', 'account_id', 'archived', 'permissions'])
    .where('roles.id', 'in', unique)
    .where(roleReach(principal))
    .execute();
  if (rows.length !== unique.length) throw new ApiError(404, ROLE_NOT_FOUND, { field });
  return rows.map((row) => ({
    ...row,
    built_in: row.account_id === null,
    permissions: (row.permissions as unknown as string[]) ?? [],
  }));
}

/** G1 for the accounts a change names: each must be one whose users the caller reaches, else 404. */
export async function assertAccountsInReach(
  db: Kysely<Database>,
  principal: Parameters<typeof roleReach>[0],
  ids: readonly string[],
  field: string,
): Promise<void> {
  for (const id of new Set(ids)) {
    if (!(await reachesAccount(db, principal, id))) throw new ApiError(404, ACCOUNT_NOT_FOUND, { field });
  }
}

/** The scope a user gets from its primary account's type (decision 018 §1). */
export function scopeOfAccountType(type: string): AccessScope {
  if (type === 'system') return 'system';
  if (type === 'partner') return 'partner';
  return 'account';
}
