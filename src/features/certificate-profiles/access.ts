import type { PermissionFlag } from '../../../contract/permissions.ts';

/** Reading profiles takes view or manage profile, as the server's check does (decision 019). */
export const PROFILE_READ_FLAGS: readonly PermissionFlag[] = ['canViewProfile', 'canManageProfile'];

/** Creating, changing and deleting them takes manage profile. */
export const PROFILE_MANAGE_FLAGS: readonly PermissionFlag[] = ['canManageProfile'];
