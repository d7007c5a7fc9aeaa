import type { PermissionName } from '../../contract/permissions.ts';
import { assertAnyPermission, assertPermission } from '../authorization/permissions.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Who may read roles (decision 018 §3.2): whoever views or defines them, and whoever assigns them to
 * users (manage user), since one cannot assign what one cannot see. Which roles a caller reaches is
 * the shared rule of `authorization/user-reach.ts`, checked first.
 */
const READ_ROLES: readonly [PermissionName, ...PermissionName[]] = [
  'VIEW_USER_ROLE',
  'MANAGE_USER_ROLE',
  'MANAGE_USER',
];

export function assertMayReadRoles(principal: Principal): void {
  assertAnyPermission(principal, READ_ROLES);
}

/** Defining roles (create, edit, clone, archive) needs manage user role (decision 018 §3.2). */
export function assertMayDefineRoles(principal: Principal): void {
  assertPermission(principal, 'MANAGE_USER_ROLE');
}
