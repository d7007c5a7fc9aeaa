import {
  LICENCE_PRODUCTS,
  type PermissionFlag,
  type PermissionFlags,
} from '../../../contract/permissions.ts';

/**
 * The flags that show an account's licence of some application: its view or manage licence
 * permission (the server's `mayView`). The general view-licence permission shows none.
 */
const APPLICATION_LICENCE_FLAGS: readonly PermissionFlag[] = Object.values(LICENCE_PRODUCTS).flatMap(
  (suffix): PermissionFlag[] => [`canView${suffix}License`, `canManage${suffix}License`],
);

/** Whether the caller may read the licence of at least one application. */
export function seesApplicationLicences(permissions: PermissionFlags): boolean {
  return APPLICATION_LICENCE_FLAGS.some((flag) => permissions[flag]);
}
