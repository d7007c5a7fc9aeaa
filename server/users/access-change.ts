import type { Kysely } from 'kysely';
import type { UserAccess } from '../../contract/schemas/users.ts';
import { assertRoleFitsUser } from '../authorization/grants.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import {
  assertMayChangeUser,
  assertMayGiveRole,
  assertSystemAdministratorRemains,
} from '../role-assignments/index.ts';
import { assertAccountsInReach, type RoleToGive, rolesInReach } from './grants.ts';

/*
 * Replacing a user's accounts and roles (decision 035 §1, §4): PUT user/{id}/access and
 * PUT service-user/{id}/access share these two steps, so people and service users get roles under
 * one set of rules.
 */

/**
 * The refusals of an access change of the user `userId`, already found within reach with the
 * permission to change it: 404 for a role or account out of reach (G1), 403 `ownUser` and
 * `userExceedsYours` (G3, G4), 403 `permissionNotHeld` and 409 `rolesFeatureOff` for each role added
 * (G5, G8), 409 `lastSystemAdministrator` for taking the last one's role (G8). Answers the roles.
 */
export async function permitAccessChange(
  trx: Kysely<Database>,
  principal: Principal,
  userId: string,
  access: UserAccess,
): Promise<RoleToGive[]> {
  const roles = await rolesInReach(trx, principal, access.role_ids, 'role_ids');
  await assertAccountsInReach(trx, principal, access.account_ids, 'account_ids');
  await assertMayChangeUser(trx, principal, [userId]);
  const held = await currentGrants(trx, userId);
  for (const role of roles.filter((role) => !held.roleIds.has(role.id))) {
    await assertMayGiveRole(trx, principal, role, 'role_ids');
  }
  const giving = new Set(roles.map((role) => role.id));
  if ([...held.systemAdministratorRoles].some((id) => !giving.has(id))) {
    await assertSystemAdministratorRemains(trx, [userId]);
  }
  return roles;
}

/** A user's stored accounts (beyond the primary one) and roles, with names for the trail. */
async function currentGrants(db: Kysely<Database>, userId: string) {
  const [roles, accounts] = await Promise.all([
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.code', 'roles.account_id'])
      .where('user_roles.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_accounts')
      .innerJoin('users', 'users.id', 'user_accounts.user_id')
      .select('user_accounts.account_id')
      .where('user_accounts.user_id', '=', userId)
      .whereRef('user_accounts.account_id', '!=', 'users.primary_account_id')
      .execute(),
  ]);
  return {
    roleIds: new Set(roles.map((role) => role.id)),
    roleNames: roles.map((role) => role.name).sort(),
    systemAdministratorRoles: new Set(
      roles
        .filter((role) => role.code === 'system_administrator' && role.account_id === null)
        .map((role) => role.id),
    ),
    accountIds: accounts.map((account) => account.account_id).sort(),
  };
}

/**
 * PUT user/{id}/access and PUT service-user/{id}/access once permitted: G6 for every role added (400 `roleNotForUser`), then the
 * differences written; the primary account is never removed (it fixes the scope). Answers the
 * UPDATE USER facts (role names, account ids), or null when nothing differs.
 */
export async function replaceAccess(
  trx: Kysely<Database>,
  row: { id: string; access_scope: string; primary_account_id: string },
  access: UserAccess,
  roles: readonly RoleToGive[],
  now: Date,
) {
  const before = await currentGrants(trx, row.id);
  const added = roles.filter((role) => !before.roleIds.has(role.id));
  for (const role of added) assertRoleFitsUser(role, row, 'role_ids');
  const wantedRoles = new Set(roles.map((role) => role.id));
  const removedRoles = [...before.roleIds].filter((id) => !wantedRoles.has(id));
  const wantedAccounts = new Set(access.account_ids.filter((id) => id !== row.primary_account_id));
  const addedAccounts = [...wantedAccounts].filter((id) => !before.accountIds.includes(id));
  const removedAccounts = before.accountIds.filter((id) => !wantedAccounts.has(id));
  if (added.length + removedRoles.length + addedAccounts.length + removedAccounts.length === 0) return null;

  if (added.length > 0) {
    await trx
      .insertInto('user_roles')
      .values(added.map((role) => ({ user_id: row.id, role_id: role.id })))
      .execute();
  }
  if (removedRoles.length > 0) {
    await trx
      .deleteFrom('user_roles')
      .where('user_id', '=', row.id)
      .where('role_id', 'in', removedRoles)
      .execute();
  }
  if (addedAccounts.length > 0) {
    await trx
      .insertInto('user_accounts')
      .values(addedAccounts.map((accountId) => ({ user_id: row.id, account_id: accountId })))
      .execute();
  }
  if (removedAccounts.length > 0) {
    await trx
      .deleteFrom('user_accounts')
      .where('user_id', '=', row.id)
      .where('account_id', 'in', removedAccounts)
      .execute();
  }
  await trx
    .updateTable('users')
    .set((eb) => ({ updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', row.id)
    .execute();
  const after = await currentGrants(trx, row.id);
  const changes: Record<string, { from: string[]; to: string[] }> = {};
  if (added.length + removedRoles.length > 0) changes.roles = { from: before.roleNames, to: after.roleNames };
  if (addedAccounts.length + removedAccounts.length > 0) {
    changes.accounts = { from: before.accountIds, to: after.accountIds };
  }
  return { action: 'UPDATE' as const, details: { changes } };
}
