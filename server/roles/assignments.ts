import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { Role, RoleUsersUpdate } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { updateDetails } from '../audit/change.ts';
import {
  assertGrantable,
  assertNotOwnUser,
  assertRoleFitsUser,
  assertUserWithinYours,
  permissionsOfUsers,
} from '../authorization/grants.ts';
import { findReachableUser, ROLE_NOT_FOUND, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { assertUserAccess } from '../users/access.ts';
import { recordUserChange } from '../users/changes.ts';
import { findReachableRole } from './repository.ts';
import { assertRolesFeatureOn } from './rules.ts';

type Direction = 'add' | 'remove';
type ReachableUser = NonNullable<Awaited<ReturnType<typeof findReachableUser>>>;

/** The names of a user's roles, sorted, for the trail. */
async function roleNamesOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.name')
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.name')
    .execute();
  return rows.map((row) => row.name);
}

/**
 * G8: the last enabled system-scope user holding the System administrator role keeps it, so the
 * platform is never left without someone who can administer it.
 */
async function assertSystemAdministratorRemains(
  db: Kysely<Database>,
  role: Role,
  removed: readonly string[],
): Promise<void> {
  if (role.code !== 'system_administrator' || removed.length === 0) return;
  const remaining = await db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select('users.id')
    .where('user_roles.role_id', '=', role.id)
    .where('users.active', '=', true)
    .where('users.access_scope', '=', 'system')
    .where('users.id', 'not in', removed)
    .executeTakeFirst();
  if (remaining === undefined) {
    throw new ApiError(409, 'The last system administrator keeps this role.', {
      code: 'lastSystemAdministrator',
    });
  }
}

/**
 * PUT role/{id}/users: gives `role` to the users of `add` and takes it from those of `remove`, all
 * or none, in the order of checks of decision 018 §3.4: 404 for a user out of reach, 403 without the
 * permission to change that user, then the refusals (G3 oneself, G4 a stronger user, G5 a role
 * granting more than the caller holds, G8 the roles feature and the last system administrator),
 * then 400 for a role that does not fit a user (G6). Each user whose roles change gets one UPDATE
 * USER event; a user who already had (or lacked) the role is left alone and not recorded.
 */
export async function changeRoleHolders(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: AppDeps,
  role: Role,
  change: RoleUsersUpdate,
): Promise<void> {
  const principal = c.var.principal;
  const removing = new Set(change.remove);
  const both = change.add.find((id) => removing.has(id));
  if (both !== undefined) throw invalidField('remove', 'invalidValue');

  const targets: { user: ReachableUser; direction: Direction }[] = [];
  for (const direction of ['add', 'remove'] as const) {
    for (const id of new Set(change[direction])) {
      const user = await findReachableUser(trx, principal, id, true);
      if (!user) throw new ApiError(404, USER_NOT_FOUND, { field: direction });
      targets.push({ user, direction });
    }
  }
  for (const { user } of targets) assertUserAccess(principal, accessScopeOf(user.access_scope), 'manage');

  const held = await permissionsOfUsers(
    trx,
    targets.map(({ user }) => user.id),
  );
  for (const { user } of targets) {
    assertNotOwnUser(principal, user.id);
    assertUserWithinYours(principal, held.get(user.id) ?? []);
  }
  const adds = targets.filter((target) => target.direction === 'add');
  if (adds.length > 0) {
    assertGrantable(principal, role.permissions);
    if (!role.built_in) await assertRolesFeatureOn(trx);
  }
  await assertSystemAdministratorRemains(trx, role, change.remove);
  for (const { user } of adds) {
    assertRoleFitsUser({ ...role, archived: role.status === 'archived' }, user, 'add');
  }

  for (const { user, direction } of targets) {
    const before = await roleNamesOf(trx, user.id);
    const written =
      direction === 'add'
        ? await trx
            .insertInto('user_roles')
            .values({ user_id: user.id, role_id: role.id })
            .onConflict((conflict) => conflict.columns(['user_id', 'role_id']).doNothing())
            .executeTakeFirst()
        : await trx
            .deleteFrom('user_roles')
            .where('user_id', '=', user.id)
            .where('role_id', '=', role.id)
            .executeTakeFirst();
    const rows =
      'numInsertedOrUpdatedRows' in written ? written.numInsertedOrUpdatedRows : written.numDeletedRows;
    if (rows === undefined || rows === 0n) continue;
    const after = await roleNamesOf(trx, user.id);
    await recordUserChange(
      trx,
      c,
      deps,
      user,
      {},
      updateDetails({ roles: before }, { roles: after }, ['roles']),
    );
  }
}

/**
 * The roles `roleIds` about to be given to a user of `user`'s scope and primary account (a user being
 * created, or one whose roles are set), checked in the order of decision 018 §3.4: 404 for a role out
 * of the caller's reach (G1), 403 `permissionNotHeld` for a role granting more than the caller holds
 * (G5), 409 `rolesFeatureOff` for a custom role while the feature is off (G8), then 400
 * `roleNotForUser` for a role that does not fit the user (G6), each on `field`. Answers the roles, in
 * the order given, each once.
 */
export async function assertRolesAssignable(
  trx: Kysely<Database>,
  principal: Principal,
  roleIds: readonly string[],
  user: { access_scope: string; primary_account_id: string },
  field: string,
): Promise<Role[]> {
  const roles: Role[] = [];
  for (const id of new Set(roleIds)) {
    const role = await findReachableRole(trx, principal, id, false);
    if (!role) throw new ApiError(404, ROLE_NOT_FOUND, { field });
    roles.push(role);
  }
  for (const role of roles) assertGrantable(principal, role.permissions, field);
  if (roles.some((role) => !role.built_in)) await assertRolesFeatureOn(trx);
  for (const role of roles)
    assertRoleFitsUser({ ...role, archived: role.status === 'archived' }, user, field);
  return roles;
}
