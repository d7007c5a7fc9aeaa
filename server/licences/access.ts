import type { ApplicationCode, LICENCE_PRODUCTS, PermissionName } from '../../contract/permissions.ts';
import { assertAnyPermission, assertPermission } from '../authorization/permissions.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import type { AccountPlace } from './repository.ts';

/**
 * Who may see and change an account's licences (account administration §5, §6; decision 022). Reach
 * to the account is the shared rule of `authorization/account-reach.ts` (404 outside it); then:
 * - seeing an application's licence needs its view or manage licence permission;
 * - changing it needs manage account and its manage licence permission, and the account must be one
 *   the caller allocates to: system scope any account but the system account, a partner the
 *   accounts under it (never itself: it draws from the system, which only system scope gives).
 */

/** The licence permissions' product of each application (overview §3). */
const PRODUCT_OF: Record<ApplicationCode, keyof typeof LICENCE_PRODUCTS> = {
  account_manager: 'AM',
  ca_manager: 'CM',
  secure_software_manager: 'SM',
  device_manager: 'IOT',
  enterprise_manager: 'EM',
  document_signing_manager: 'DSM',
  discovery_automation_manager: 'TM',
  device_trust_manager: 'DEVCTM',
};

export function viewLicencePermission(app: ApplicationCode): PermissionName {
  return `VIEW_${PRODUCT_OF[app]}_LICENSE`;
}

export function manageLicencePermission(app: ApplicationCode): PermissionName {
  return `MANAGE_${PRODUCT_OF[app]}_LICENSE`;
}

export function mayView(principal: Principal, app: ApplicationCode): boolean {
  return (
    principal.permissions.has(viewLicencePermission(app)) ||
    principal.permissions.has(manageLicencePermission(app))
  );
}

/** 403 naming the permission the caller lacks for `access` to the application's licence. */
export function authorizeLicence(principal: Principal, app: ApplicationCode, access: Access): void {
  if (access === 'view') {
    assertAnyPermission(principal, [viewLicencePermission(app), manageLicencePermission(app)]);
    return;
  }
  assertPermission(principal, 'MANAGE_ACCOUNT');
  assertPermission(principal, manageLicencePermission(app));
}

/** Whether the caller's scope allocates to `account`: system any but itself, a partner its accounts. */
export function mayAllocateTo(principal: Principal, account: AccountPlace): boolean {
  switch (principal.accessScope) {
    case 'system':
      return !account.system_account;
    case 'partner':
      return account.partner_account_id === principal.primaryAccountId;
    case 'account':
      return false;
  }
}

/** 403 unless the caller's scope allocates to `account`. */
export function assertMayAllocateTo(principal: Principal, account: AccountPlace): void {
  if (mayAllocateTo(principal, account)) return;
  if (account.system_account) throw new ApiError(403, "The System Account's pool is the installed licence.");
  if (principal.accessScope === 'account') {
    throw new ApiError(403, 'Account-scope users cannot allocate licences.');
  }
  throw new ApiError(403, 'A partner allocates licences only to the accounts under its partner account.');
}

/** `canEdit` of a section: the permissions and the scope a change needs. */
export function canEditLicence(principal: Principal, account: AccountPlace, app: ApplicationCode): boolean {
  return (
    principal.permissions.has('MANAGE_ACCOUNT') &&
    principal.permissions.has(manageLicencePermission(app)) &&
    mayAllocateTo(principal, account)
  );
}
