import type { PermissionName } from '../../contract/permissions.ts';
import { assertAnyPermission, assertPermission } from '../authorization/permissions.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';

/**
 * Who may do what with enrollments and seats (decision 021): view enrollment reads them, manage
 * enrollment also changes them. Which ones a caller reaches is the account reach of
 * `authorization/account-reach.ts`, checked first (404).
 */
const READ_ENROLLMENTS: readonly [PermissionName, ...PermissionName[]] = [
  'VIEW_ENROLLMENT',
  'MANAGE_ENROLLMENT',
];

export function assertEnrollmentAccess(principal: Principal, access: Access): void {
  if (access === 'view') assertAnyPermission(principal, READ_ENROLLMENTS);
  else assertPermission(principal, 'MANAGE_ENROLLMENT');
}
