import { type Expression, sql } from 'kysely';
import {
  BUILT_IN_ROLES,
  isPermissionName,
  PERMISSION_NAMES,
  type PermissionName,
} from '../../contract/permissions.ts';
import { ApiError } from '../http/errors.ts';
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
 * G5, grant only what you hold: throws 403 `permissionNotHeld` on `field` unless the caller holds
 * every one of `permissions`, so nobody hands out (to a role or, through a role, to a user) more
 * than they have.
 */
export function assertGrantable(principal: Principal, permissions: Iterable<string>, field: string): void {
  const missing = [...permissions].find((name) => !holds(principal, name));
  if (missing !== undefined) {
    throw new ApiError(403, `You cannot grant ${missing}, which you do not hold.`, {
      field,
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

function holds(principal: Principal, name: string): boolean {
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
