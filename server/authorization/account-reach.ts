import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Which accounts a caller reaches (account administration §4; decision 004), for every domain whose
 * objects belong to an account: the accounts themselves, their organizations, their users.
 * - system scope reaches every account;
 * - partner scope its primary account, the accounts under it and those it was added to;
 * - account scope its primary account and the accounts it was added to.
 * An object in an account out of reach is answered 404 like a missing one, so its existence is not
 * confirmed; only within reach does a missing permission answer 403.
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

/** A where-clause over the unaliased `accounts` table, as `visibleTo` and `reachesUsersOf` make them. */
type AccountFilter = (eb: ExpressionBuilder<Database, 'accounts'>) => Expression<SqlBool>;

/** Whether the account `accountId` exists and passes `filter`: one primary-key lookup. */
export async function accountPasses(
  db: Kysely<Database>,
  accountId: string,
  filter: AccountFilter,
): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('accounts.id', '=', accountId)
    .where(filter)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `principal` sees the account `accountId` (which must exist). */
export function canSeeAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
): Promise<boolean> {
  return accountPasses(db, accountId, visibleTo(principal));
}

/** Whether the caller sees every account, so a list needs no narrowing first. */
export function seesEveryAccount(principal: Principal): boolean {
  return principal.accessScope === 'system';
}

export interface AccountPlacement {
  id: string;
  partner_account_id: string | null;
}

/**
 * Whether `principal` may change `account` (one it sees; account administration §6, decision 004):
 * system scope any, a partner those under its partner account, account scope none. What a domain
 * changes of an account (its data, its features) is for those who may manage it.
 */
export function mayManageAccount(principal: Principal, account: AccountPlacement): boolean {
  switch (principal.accessScope) {
    case 'system':
      return true;
    case 'partner':
      return account.partner_account_id === principal.primaryAccountId;
    case 'account':
      return false;
  }
}
