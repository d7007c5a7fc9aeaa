import type { PermissionFlag } from '../../../contract/permissions.ts';

/**
 * Reading users (the administrators list and details) takes view user or any manage-user
 * permission, as the server's check does (decision 018 §3.2). The navigation shows the item on the
 * narrower rule of the spec (C-09); the server decides every call either way.
 */
export const USER_READ_FLAGS: readonly PermissionFlag[] = [
  'canViewUser',
  'canManageUser',
  'canManageAccountUser',
  'canManagePartnerUser',
  'canManageSystemUser',
];

/** Reading roles, which the role filter offers: as the server's check (decision 018 §3.2). */
export const ROLE_READ_FLAGS: readonly PermissionFlag[] = [
  'canViewUserRole',
  'canManageUserRole',
  'canManageUser',
];
