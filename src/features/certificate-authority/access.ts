import type { PermissionFlag } from '../../../contract/permissions.ts';

/** The CA pages are shown on view or manage CA, as the navigation offers them (decision 019). */
export const CA_READ_FLAGS: readonly PermissionFlag[] = ['canViewCa', 'canManageCa'];
