import type { ReactNode } from 'react';
import { hasEveryPermission, type PermissionFlag } from '../../contract/permissions.ts';
import { usePermissionFlags } from '../lib/permissions.tsx';
import { AccountUnavailablePage } from './account-unavailable-page.tsx';
import { ForbiddenPage } from './forbidden-page.tsx';

interface RequirePermissionsProps {
  /** Every one must be held (C-27). */
  flags: readonly PermissionFlag[];
  /**
   * For sections the navigation shows on any of several permissions (Platform settings): at least
   * one must be held as well.
   */
  anyOf?: readonly PermissionFlag[];
  children: ReactNode;
}

/**
 * Shows the page only with the required permissions; otherwise the alternative page when viewing
 * the account was required, else the 403 page (overview §6). The server checks again on every call.
 */
export function RequirePermissions({ flags, anyOf = [], children }: RequirePermissionsProps) {
  const held = usePermissionFlags();
  const allowed = hasEveryPermission(held, flags) && (anyOf.length === 0 || anyOf.some((flag) => held[flag]));
  if (allowed) return children;
  return flags.includes('canViewAccount') ? <AccountUnavailablePage /> : <ForbiddenPage />;
}
