import type { Kysely } from 'kysely';
import { type ApplicationCode, PERMISSION_GROUPS, type PermissionName } from '../../contract/permissions.ts';
import type { Role } from '../../contract/schemas/users.ts';
import { assertRoleWithinYours, permissionsForAccountType } from '../authorization/grants.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { assertMayDefineRoles } from './access.ts';
import { accountType, type RoleNameScope, roleNameTaken } from './repository.ts';

/**
 * The rules of role definitions beyond who may make them (decision 018 §3.3 G8, G9; decision 035 §2). Reach
 * (G1), permission (G2) and grant-only-what-you-hold (G5) come from `authorization/`.
 */

/**
 * Whether the edit and archive checks (G2, G5, G8) would let `principal` change `role`: the one rule
 * behind `editable` on the list's rows and on GET role/{id}. `featureOn` is `rolesFeatureOn`, read
 * once per request.
 */
export function mayEditRole(principal: Principal, role: Role, featureOn: boolean): boolean {
  if (!featureOn) return false;
  try {
    assertMayDefineRoles(principal);
    assertNotBuiltIn(role);
    assertNotArchived(role);
    assertRoleWithinYours(principal, role.permissions);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** G8: built-in roles are never edited or archived; they are cloned instead. */
export function assertNotBuiltIn(role: Role): void {
  if (role.built_in) {
    throw new ApiError(409, 'Built-in roles cannot be changed or archived.', { code: 'builtInRole' });
  }
}

/** An archived role is read-only: nothing un-archives, so an edit would change a role nobody can hold again. */
export function assertNotArchived(role: Role): void {
  if (role.status === 'archived') throw new ApiError(409, 'Role is archived and cannot be changed.');
}

/**
 * G9 and §4.2: the application must have permissions to grant, and the account's type must allow
 * every permission (400 naming the field).
 */
export async function assertPermissionsFitAccount(
  db: Kysely<Database>,
  role: { accountId: string; appCode: ApplicationCode; permissions: readonly PermissionName[] },
): Promise<void> {
  // An application without a permission catalogue yet: a role for it would grant nothing.
  if (PERMISSION_GROUPS[role.appCode].length === 0) {
    throw invalidField('application_id', 'noPermissionsForApplication');
  }
  const allowed = permissionsForAccountType(await accountType(db, role.accountId));
  if (role.permissions.some((name) => !allowed.has(name))) {
    throw invalidField('permissions', 'permissionNotForAccount');
  }
}

/** The 409 of a role name already in use. */
export function roleNameInUse(): ApiError {
  return new ApiError(409, 'name: already in use', { field: 'name', code: 'inUse' });
}

export async function assertRoleNameFree(db: Kysely<Database>, scope: RoleNameScope): Promise<void> {
  if (await roleNameTaken(db, scope)) throw roleNameInUse();
}
