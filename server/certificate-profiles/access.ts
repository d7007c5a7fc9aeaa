import type { PermissionName } from '../../contract/permissions.ts';
import { assertAnyPermission, assertPermission } from '../authorization/permissions.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';

/**
 * Who may do what with certificate profiles (decision 019): whoever views or manages profiles reads
 * them; only manage profile changes them. Which profiles a caller reaches is the account reach of
 * `authorization/account-reach.ts`, checked first (404).
 */
const READ_PROFILES: readonly [PermissionName, ...PermissionName[]] = ['VIEW_PROFILE', 'MANAGE_PROFILE'];

/** Templates are profiles as enrollment offers them: view template, or whoever reads profiles. */
const READ_TEMPLATES: readonly [PermissionName, ...PermissionName[]] = [
  'VIEW_TEMPLATE',
  'MANAGE_TEMPLATE',
  'VIEW_PROFILE',
  'MANAGE_PROFILE',
];

export function assertMayReadProfiles(principal: Principal): void {
  assertAnyPermission(principal, READ_PROFILES);
}

export function assertMayManageProfiles(principal: Principal): void {
  assertPermission(principal, 'MANAGE_PROFILE');
}

export function assertProfileAccess(principal: Principal, access: Access): void {
  if (access === 'view') assertMayReadProfiles(principal);
  else assertMayManageProfiles(principal);
}

export function assertMayReadTemplates(principal: Principal): void {
  assertAnyPermission(principal, READ_TEMPLATES);
}
