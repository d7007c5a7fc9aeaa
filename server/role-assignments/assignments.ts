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
import { assertUserAccess } from '../authorization/user-access.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { recordUserChange } from '../resources/user-change.ts';
import { assertRolesFeatureOn } from './feature.ts';

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
 * G8: the last enabled system-scope user holding the System administrator role keeps it, stays
 * enabled and stays, so the platform is never left without someone who can administer it. `losing`
 * are the users about to lose the role, their enabled state or their existence; 409 when they hold
 * every remaining one.
 */
export async function assertSystemAdministratorRemains(
  db: Kysely<Database>,
  losing: readonly string[],
): Promise<void> {
  if (losing.length === 0) return;
  const holders = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select('users.id')
    .distinct()
    .where('roles.code', '=', 'system_administrator')
    .where('roles.account_id', 'is', null)
    .where('users.active', '=', true)
    .where('users.access_scope', '=', 'system')
    .execute();
  const lost = new Set(losing);
  const touched = holders.some((holder) => lost.has(holder.id));
  if (touched && holders.every((holder) => lost.has(holder.id))) {
    throw new ApiError(409, 'The last system administrator keeps this role and stays enabled.', {
      code: 'lastSystemAdministrator',
    });
  }
}

/**
 * G5 and G8 for a role about to be given to a user, from the role page or the user's access: the
 * caller holds everything it grants (403 `permissionNotHeld`, on `field` when the roles came from
 * the body), and a custom role needs the roles feature on (409 `rolesFeatureOff`).
 */
export async function assertMayGiveRole(
  db: Kysely<Database>,
  principal: Principal,
  role: { permissions: readonly string[]; built_in: boolean },
  field?: string,
): Promise<void> {
  assertGrantable(principal, role.permissions, field);
  if (!role.built_in) await assertRolesFeatureOn(db);
}

/**
 * G3 and G4 for every change of a user by someone else: never oneself (403 `ownUser`), never a
 * user holding what the caller does not (403 `userExceedsYours`).
 */
export async function assertMayChangeUser(
  db: Kysely<Database>,
  principal: Principal,
  userIds: readonly string[],
  options: { self?: 'refused' | 'allowed' } = {},
): Promise<void> {
  const held = await permissionsOfUsers(db, userIds);
  for (const id of userIds) {
    if (options.self !== 'allowed') assertNotOwnUser(principal, id);
    if (id !== principal.userId) assertUserWithinYours(principal, held.get(id) ?? []);
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

  await assertMayChangeUser(
    trx,
    principal,
    targets.map(({ user }) => user.id),
  );
  const adds = targets.filter((target) => target.direction === 'add');
  if (adds.length > 0) await assertMayGiveRole(trx, principal, role);
  if (role.code === 'system_administrator') await assertSystemAdministratorRemains(trx, change.remove);
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
