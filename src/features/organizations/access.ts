import type { PermissionFlag } from '../../../contract/permissions.ts';

/** Organizations and their contacts can be read with either permission (overview §6, account administration §6). */
export const ORGANIZATION_READ_FLAGS: readonly PermissionFlag[] = [
  'canViewOrganization',
  'canManageOrganization',
];

/** Creating, editing and deleting organizations and contacts. */
export const ORGANIZATION_MANAGE_FLAGS: readonly PermissionFlag[] = ['canManageOrganization'];
