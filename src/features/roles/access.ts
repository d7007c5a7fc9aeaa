import type { PermissionFlag } from '../../../contract/permissions.ts';

/** The role pages open on view or manage user role, as the navigation shows them (decision 039 §10). */
export const ROLE_READ_FLAGS: readonly PermissionFlag[] = ['canViewUserRole', 'canManageUserRole'];
