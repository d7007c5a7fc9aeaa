import type { PermissionName } from '../../contract/permissions.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import { assertAnyPermission, assertPermission } from './permissions.ts';

/**
 * Who may do what on users (decision 018 §3.2); which users a caller reaches is the shared rule of
 * `authorization/user-reach.ts`, checked first.
 * - Reading (list, record, export, applications) needs view user or any manage-user permission:
 *   whoever sees the Access section (C-09).
 * - Changing needs manage user and the manage permission of the target's scope.
 */
const READ_USERS: readonly [PermissionName, ...PermissionName[]] = [
  'VIEW_USER',
  'MANAGE_USER',
  'MANAGE_ACCOUNT_USER',
  'MANAGE_PARTNER_USER',
  'MANAGE_SYSTEM_USER',
];

const MANAGE_SCOPE_USER = {
  system: 'MANAGE_SYSTEM_USER',
  partner: 'MANAGE_PARTNER_USER',
  account: 'MANAGE_ACCOUNT_USER',
} as const satisfies Record<Principal['accessScope'], PermissionName>;

export function assertMayReadUsers(principal: Principal): void {
  assertAnyPermission(principal, READ_USERS);
}

/** Throws the 403 naming what is missing unless `principal` may `access` a user of `targetScope`. */
export function assertUserAccess(
  principal: Principal,
  targetScope: Principal['accessScope'],
  access: Access,
): void {
  if (access === 'view') {
    assertMayReadUsers(principal);
    return;
  }
  assertPermission(principal, 'MANAGE_USER');
  assertPermission(principal, MANAGE_SCOPE_USER[targetScope]);
}
