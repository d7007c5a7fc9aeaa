import { type AccountPlacement, mayManageAccount } from '../authorization/account-reach.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Which accounts a caller may change (account administration §6; decision 004); which it sees is
 * the shared rule of `authorization/account-reach.ts`. Every account handler goes through both, so
 * the list, the details and the changes cannot disagree:
 * - system scope manages every account;
 * - partner scope manages only the accounts under its partner account;
 * - account scope manages none.
 * An account the caller sees but may not change is answered 403 saying why.
 */

/** What a refused change was, in the words of the 403 message. */
export type AccountAction = 'create' | 'edit' | 'delete' | 'unlink' | 'deactivate' | 'reactivate';

/** The 403 for a caller whose scope does not allow `action` on accounts at all, or on this one. */
export function scopeForbids(principal: Principal, action: AccountAction): ApiError {
  if (principal.accessScope === 'account') {
    return new ApiError(403, `Account-scope users cannot ${action} accounts.`);
  }
  return new ApiError(403, `A partner can ${action} only the accounts under its partner account.`);
}

/** Throws the 403 of `scopeForbids` unless `principal` may change `account`. */
export function assertManageable(
  principal: Principal,
  account: AccountPlacement,
  action: AccountAction,
): void {
  if (!mayManageAccount(principal, account)) throw scopeForbids(principal, action);
}
