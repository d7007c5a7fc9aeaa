import type { PermissionFlag } from '../../../contract/permissions.ts';

/**
 * Reading service users takes view user or any manage-user permission, as the server's check does
 * (decision 018 §3.2); changing them, manage user (the server adds the scope's permission and G4).
 */
export const SERVICE_USER_READ_FLAGS: readonly PermissionFlag[] = [
  'canViewUser',
  'canManageUser',
  'canManageAccountUser',
  'canManagePartnerUser',
  'canManageSystemUser',
];

export const SERVICE_USER_MANAGE_FLAGS: readonly PermissionFlag[] = ['canManageUser'];
