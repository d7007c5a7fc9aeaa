import { mayManageAccount } from '../authorization/account-reach.ts';
import { forbidden } from '../authorization/permissions.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import type { FeatureSetRow } from './repository.ts';

/**
 * Who may read and change an account's features (account administration §6): reading needs the view
 * or the manage account permission, changing needs manage account. Call it only once the account is
 * known to be within the caller's reach (404 before 403).
 */
export function assertFeaturePermission(principal: Principal, access: Access): void {
  const { permissions } = principal;
  if (permissions.has('MANAGE_ACCOUNT')) return;
  if (access === 'view' && permissions.has('VIEW_ACCOUNT')) return;
  throw forbidden(access === 'view' ? 'VIEW_ACCOUNT' : 'MANAGE_ACCOUNT');
}

/**
 * Whether the caller may change these features: manage account, on an account its scope manages. A
 * partner's own primary account is not under it, so K-15 holds here too (the `canEdit` the console
 * shows); `rules.ts` says which refusal it is.
 */
export function mayEditFeatures(principal: Principal, account: FeatureSetRow): boolean {
  return principal.permissions.has('MANAGE_ACCOUNT') && mayManageAccount(principal, account);
}
