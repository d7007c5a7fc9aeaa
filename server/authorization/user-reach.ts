import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { accountPasses } from './account-reach.ts';

/**
 * Which users a caller reaches, to read and to change (decision 018 §3.1):
 * - system scope every user;
 * - partner scope the users whose primary account is its partner account or an account under it;
 * - account scope the users whose primary account is its own primary account.
 * Accounts a caller was merely added to do not extend this reach, unlike account visibility
 * (`account-reach.ts`): being added to an account lets one see its data, not administer its people.
 * The custom roles a caller reaches are those of the accounts whose users it reaches, since a custom
 * role is assigned only to users of its account. A user, role or account out of reach is answered
 * 404 like a missing one, and applied in SQL before any filter, so no filter, sort or total tells
 * anything about it.
 */

export const USER_NOT_FOUND = 'User not found.';
export const ROLE_NOT_FOUND = 'Role not found.';

/** Where-clause of the accounts whose users `principal` reaches, over the unaliased `accounts` table. */
export function reachesUsersOf(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'accounts'>): Expression<SqlBool> => {
    switch (principal.accessScope) {
      case 'system':
        return eb.lit(true);
      // The expression of the `accounts_partner_visibility` index: the partner's own account and those under it.
      case 'partner':
        return eb(
          eb.fn.coalesce('accounts.partner_account_id', 'accounts.id'),
          '=',
          principal.primaryAccountId,
        );
      case 'account':
        return eb('accounts.id', '=', principal.primaryAccountId);
    }
  };
}

/**
 * Where-clause of the users `principal` reaches, over the unaliased `users` table. A partner's
 * accounts are compared as `= any(array(…))`, which the planner reads once through the partner index
 * and then answers from `users_primary_account_id`, rather than testing every user against a join.
 */
export function userReach(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    switch (principal.accessScope) {
      case 'system':
        return eb.lit(true);
      case 'partner':
        return eb(
          'users.primary_account_id',
          '=',
          eb.fn.any(sql<string[]>`array(
            select id from accounts where coalesce(partner_account_id, id) = ${principal.primaryAccountId}
          )`),
        );
      case 'account':
        return eb('users.primary_account_id', '=', principal.primaryAccountId);
    }
  };
}

/** Where-clause of the roles `principal` reaches, over the unaliased `roles` table: built-in ones and its accounts' own. */
export function roleReach(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'roles'>): Expression<SqlBool> =>
    principal.accessScope === 'system'
      ? eb.lit(true)
      : eb.or([
          eb('roles.account_id', 'is', null),
          eb(
            'roles.account_id',
            'in',
            eb.selectFrom('accounts').select('accounts.id').where(reachesUsersOf(principal)),
          ),
        ]);
}

/** Whether `principal` reaches the users of the account `accountId`; false for an unknown id. */
export function reachesAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
): Promise<boolean> {
  return accountPasses(db, accountId, reachesUsersOf(principal));
}

/** Whether `principal` reaches the role `roleId`; false for an unknown id. */
export async function reachesRole(
  db: Kysely<Database>,
  principal: Principal,
  roleId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('roles')
    .select('id')
    .where('roles.id', '=', roleId)
    .where(roleReach(principal))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The person `id` as a query to select from, if `principal` reaches them. Service users are reached
 * through their own routes only (`service-users/`): a person's mail, password, two-factor, token and
 * role calls have no meaning for them, so `user/{id}/…` answers 404 for one like a missing user.
 */
export function reachablePerson(db: Kysely<Database>, principal: Principal, id: string) {
  return db
    .selectFrom('users')
    .where('users.id', '=', id)
    .where('users.kind', '=', 'person')
    .where(userReach(principal));
}

/**
 * The person with `id` if `principal` reaches them; with `lock`, locked for the rest of the
 * transaction so the checks made on it still hold when a change is written.
 */
export function findReachableUser(db: Kysely<Database>, principal: Principal, id: string, lock: boolean) {
  return reachablePerson(db, principal, id)
    .select(['id', 'user_name', 'locale', 'access_scope', 'primary_account_id', 'version'])
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
}
