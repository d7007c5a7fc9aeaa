import { createContext, type ReactNode, useContext } from 'react';
import { type PermissionFlags, permissionFlagsFrom } from '../../contract/permissions.ts';

const NO_PERMISSIONS: PermissionFlags = permissionFlagsFrom([]);

const PermissionFlagsContext = createContext<PermissionFlags>(NO_PERMISSIONS);

/** The secure layout provides the flags of the current user and account to every page below it. */
export function PermissionFlagsProvider({
  flags,
  children,
}: {
  flags: PermissionFlags;
  children: ReactNode;
}) {
  return <PermissionFlagsContext value={flags}>{children}</PermissionFlagsContext>;
}

/** Outside a secure layout every flag is false, so nothing is shown by mistake. */
export function usePermissionFlags(): PermissionFlags {
  return useContext(PermissionFlagsContext);
}
