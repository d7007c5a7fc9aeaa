import type { PermissionFlag } from '../../../contract/permissions.ts';

/** Reading enrollments takes view enrollment; enrolling, resending and cancelling, manage enrollment. */
export const ENROLLMENT_READ_FLAGS: readonly PermissionFlag[] = ['canViewEnrollment'];
export const ENROLLMENT_MANAGE_FLAGS: readonly PermissionFlag[] = ['canManageEnrollment'];
