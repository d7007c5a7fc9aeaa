import type { PermissionFlags } from '../../../contract/permissions.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import type { TenantSummary } from '../../../contract/schemas/tenants.ts';

type Viewer = Pick<Profile, 'access_scope' | 'primary_account_id'>;

/**
 * Whether the viewer may edit this account (account administration §2, §4): with canManageAccount,
 * system scope edits any account; partner scope only accounts whose partner is its primary account
 * (F-22, F-23, H-18).
 */
export function canEditAccount(
  viewer: Viewer,
  flags: Pick<PermissionFlags, 'canManageAccount'>,
  account: Pick<TenantSummary, 'partner_account_id'>,
): boolean {
  if (!flags.canManageAccount) return false;
  if (viewer.access_scope === 'system') return true;
  if (viewer.access_scope !== 'partner') return false;
  return account.partner_account_id === viewer.primary_account_id;
}

/**
 * Whether the viewer may deactivate or reactivate this account (decision 017): whoever may edit it,
 * never the System Account or the viewer's own primary account.
 */
export function canChangeAccountStatus(
  viewer: Viewer,
  flags: Pick<PermissionFlags, 'canManageAccount'>,
  account: Pick<TenantSummary, 'id' | 'partner_account_id' | 'system_account'>,
): boolean {
  return (
    canEditAccount(viewer, flags, account) &&
    !account.system_account &&
    account.id !== viewer.primary_account_id
  );
}

/** The account name links to its details when the account is active, or for system scope always (F-03, F-04). */
export function linksToDetails(viewer: Viewer, account: Pick<TenantSummary, 'active'>): boolean {
  return account.active || viewer.access_scope === 'system';
}

/**
 * The create control of the accounts list (F-25 … F-29): hidden unless the viewer manages accounts,
 * organizations and permissions in system or partner scope; a menu of standard and partner account
 * for system scope with partner accounts on; otherwise one create-account button.
 */
export function createAccountControl(
  viewer: Viewer,
  flags: Pick<PermissionFlags, 'canManageAccount' | 'canManageOrganization' | 'canManagePermission'>,
  partnerAccountsEnabled: boolean,
): 'none' | 'button' | 'menu' {
  const manages = flags.canManageAccount && flags.canManageOrganization && flags.canManagePermission;
  if (!manages || viewer.access_scope === 'account') return 'none';
  return viewer.access_scope === 'system' && partnerAccountsEnabled ? 'menu' : 'button';
}
