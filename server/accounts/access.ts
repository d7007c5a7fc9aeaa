import type { MiddlewareHandler } from 'hono';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { PermissionName } from '../../contract/permissions.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { forbidden } from '../http/authenticate.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Which accounts a caller sees and which it may change (account administration §4, §6; decision 004).
 * Every account handler goes through these two rules, so the list, the details and the changes cannot
 * disagree:
 * - system scope sees and manages every account;
 * - partner scope sees its primary account, the accounts under it and those it was added to, and
 *   manages only the accounts under it;
 * - account scope sees its primary account and the accounts it was added to, and manages none.
 * An account the caller does not see is answered 404 (its existence is not confirmed); one it sees
 * but may not change is answered 403 saying why.
 */

export const ACCOUNT_NOT_FOUND = 'Account not found.';

/**
 * Where-clause of the accounts `principal` sees, over the unaliased `accounts` table. A partner's own
 * set is `coalesce(partner_account_id, id) = its account`: its own account has no partner, the
 * accounts under it name it, and an index on that expression serves the lookup. The accounts a user
 * was added to are compared as `id = any(array(…))`, which the planner reads once and answers from
 * the primary key, rather than `id in (…)`, which would make it test every row.
 */
export function visibleTo(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'accounts'>): Expression<SqlBool> => {
    if (principal.accessScope === 'system') return eb.lit(true);
    const addedTo = eb(
      'accounts.id',
      '=',
      eb.fn.any(sql<string[]>`array(
      select account_id from user_accounts where user_id = ${principal.userId}
    )`),
    );
    const own =
      principal.accessScope === 'partner'
        ? eb(eb.fn.coalesce('accounts.partner_account_id', 'accounts.id'), '=', principal.primaryAccountId)
        : eb('accounts.id', '=', principal.primaryAccountId);
    return eb.or([own, addedTo]);
  };
}

/** Whether `principal` sees the account `accountId` (which must exist). */
export async function canSeeAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('accounts.id', '=', accountId)
    .where(visibleTo(principal))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the caller sees every account, so a list needs no narrowing first. */
export function seesEveryAccount(principal: Principal): boolean {
  return principal.accessScope === 'system';
}

export interface AccountPlacement {
  id: string;
  partner_account_id: string | null;
}

/** Throws the 403 naming `permission` unless the caller holds it. */
export function assertPermission(principal: Principal, permission: PermissionName): void {
  if (!principal.permissions.has(permission)) throw forbidden(permission);
}

/** Whether `principal` may change `account` (one it sees): system any, a partner those under it. */
export function mayManage(principal: Principal, account: AccountPlacement): boolean {
  switch (principal.accessScope) {
    case 'system':
      return true;
    case 'partner':
      return account.partner_account_id === principal.primaryAccountId;
    case 'account':
      return false;
  }
}

/** What a refused change was, in the words of the 403 message. */
export type AccountAction = 'create' | 'edit' | 'delete' | 'unlink';

/** The 403 for a caller whose scope does not allow `action` on accounts at all, or on this one. */
export function scopeForbids(principal: Principal, action: AccountAction): ApiError {
  if (principal.accessScope === 'account') {
    return new ApiError(403, `Account-scope users cannot ${action} accounts.`);
  }
  return new ApiError(403, `A partner can ${action} only the accounts under its partner account.`);
}

/** Throws the 403 of `scopeForbids` unless `principal` may change `account`. */
export function assertManageable(
  principal: Principal,
  account: AccountPlacement,
  action: AccountAction,
): void {
  if (!mayManage(principal, account)) throw scopeForbids(principal, action);
}

/**
 * Answers 403 unless the caller is system scope and holds `permission`: for platform-wide settings
 * and for calls of the identity product, which no partner or account may make whatever its roles.
 */
export function requireSystemScope(permission: PermissionName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.var.principal.accessScope !== 'system') throw forbidden(permission);
    assertPermission(c.var.principal, permission);
    await next();
  };
}
