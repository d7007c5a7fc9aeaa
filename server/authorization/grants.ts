import { type Expression, type Kysely, sql } from 'kysely';
import {
  BUILT_IN_ROLES,
  isPermissionName,
  PERMISSION_NAMES,
  type PermissionName,
} from '../../contract/permissions.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * What a user holds, for every rule that compares permissions (decision 018 §3.3): the distinct
 * permission names of the user's roles, archived roles excluded, as one subquery. The caller's own
 * permissions on every request and a user's record read this one definition.
 */
export function effectivePermissions(userId: Expression<string>) {
  return sql<string[]>`(
    select coalesce(jsonb_agg(distinct granted.name), '[]'::jsonb)
    from user_roles
    join roles on roles.id = user_roles.role_id and not roles.archived
    cross join lateral jsonb_array_elements_text(roles.permissions) as granted(name)
    where user_roles.user_id = ${userId}
  )`;
}

/**
 * G5, grant only what you hold: throws 403 `permissionNotHeld` (on `field`, when the permissions
 * came from the request body) unless the caller holds
 * every one of `permissions`, so nobody hands out (to a role or, through a role, to a user) more
 * than they have.
 */
export function assertGrantable(principal: Principal, permissions: Iterable<string>, field?: string): void {
  const missing = [...permissions].find((name) => !holds(principal, name));
  if (missing !== undefined) {
    throw new ApiError(403, `You cannot grant ${missing}, which you do not hold.`, {
      ...(field === undefined ? {} : { field }),
      code: 'permissionNotHeld',
    });
  }
}

/**
 * G5 on a stored role: throws 403 `roleExceedsYours` unless the caller holds everything the role
 * grants today, so nobody edits or archives a role above their own level.
 */
export function assertRoleWithinYours(principal: Principal, granted: Iterable<string>): void {
  if ([...granted].some((name) => !holds(principal, name))) {
    throw new ApiError(403, 'This role grants permissions you do not hold.', { code: 'roleExceedsYours' });
  }
}

/** Whether the caller holds the permission `name` (G5's and G4's unit). */
export function holds(principal: Principal, name: string): boolean {
  return isPermissionName(name) && principal.permissions.has(name);
}

/**
 * G9: a role grants `VIEW_X` with `MANAGE_X` (whoever may change a thing may see it), added before
 * G5 is checked on the result. Answers the names once each, sorted, as roles store them.
 */
export function withImpliedViews(permissions: Iterable<PermissionName>): PermissionName[] {
  const names = new Set<PermissionName>();
  for (const name of permissions) {
    names.add(name);
    const view = name.startsWith('MANAGE_') ? `VIEW_${name.slice('MANAGE_'.length)}` : null;
    if (view !== null && isPermissionName(view)) names.add(view);
  }
  return [...names].sort();
}

/**
 * G9: what a role of an account of `accountType` may grant: the System Account anything, a partner
 * account what the partner administrator holds, a standard account that less partner-user management.
 */
export function permissionsForAccountType(accountType: string): ReadonlySet<PermissionName> {
  if (accountType === 'system') return new Set(PERMISSION_NAMES);
  const partner = BUILT_IN_ROLES.partner_administrator.permissions;
  return new Set(
    accountType === 'partner' ? partner : partner.filter((name) => !name.endsWith('_PARTNER_USER')),
  );
}

/** What each of `userIds` holds (`effectivePermissions`), by user id. */
export async function permissionsOfUsers(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['users.id', effectivePermissions(sql.ref('users.id')).as('permissions')])
    .where('users.id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.permissions]));
}

/** G3: nobody changes their own roles, memberships, enabled state or two-factor (403 `ownUser`). */
export function assertNotOwnUser(principal: Principal, userId: string): void {
  if (userId === principal.userId) {
    throw new ApiError(403, 'You cannot make this change to your own user.', { code: 'ownUser' });
  }
}

/**
 * G4: a caller changes a user only when the caller holds everything the user holds (403
 * `userExceedsYours`), so support staff cannot take over a stronger administrator's account.
 */
export function assertUserWithinYours(principal: Principal, userPermissions: Iterable<string>): void {
  if ([...userPermissions].some((name) => !holds(principal, name))) {
    throw new ApiError(403, 'This user holds permissions you do not hold.', { code: 'userExceedsYours' });
  }
}

/** A role as G6 needs it. */
export interface AssignableRole {
  code: string | null;
  account_id: string | null;
  archived: boolean;
}

/**
 * G6, the role fits the user: never an archived role; a built-in role only for the scope it is made
 * for (the read-only auditor for any); a custom role only for users of its account. Else 400
 * `roleNotForUser` on `field`.
 */
export function assertRoleFitsUser(
  role: AssignableRole,
  user: { access_scope: string; primary_account_id: string },
  field: string,
): void {
  if (!roleFitsUser(role, user)) throw invalidField(field, 'roleNotForUser');
}

/** G6 as a test, for callers that collect reasons instead of throwing (the bulk file's rows). */
export function roleFitsUser(
  role: AssignableRole,
  user: { access_scope: string; primary_account_id: string },
) {
  if (role.archived) return false;
  if (role.account_id !== null) return role.account_id === user.primary_account_id;
  const builtIn = Object.entries(BUILT_IN_ROLES).find(([code]) => code === role.code)?.[1];
  if (builtIn === undefined) return false;
  return builtIn === BUILT_IN_ROLES.read_only_auditor || builtIn.scope === user.access_scope;
}
