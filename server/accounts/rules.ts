import type { TenantCreate } from '../../contract/schemas/tenants.ts';
import { servicePeriodIssue } from '../../contract/validation.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { type AccountAction, assertManageable, scopeForbids } from './access.ts';
import type { AccountRow } from './repository.ts';

/**
 * The rules of accounts beyond who sees them (account administration §5, §6): the service period,
 * what a partner may do to its own account and to new ones, and what nobody may do to the System
 * Account or to their own primary account. The routes call these; none of them reads the database.
 */

/** The 409 of a value that another account or user already holds. */
export function inUse(field: 'friendly_identifier'): ApiError {
  return new ApiError(409, `${field}: already in use`, { field, code: 'inUse' });
}

/** The service period rule of `contract/validation.ts`, the one the console's form applies too. */
export function assertServicePeriod(
  period: { from: string; to: string },
  today: string,
  currentTo: string | null,
): void {
  const issue = servicePeriodIssue(period, today, currentTo);
  if (issue !== null) throw invalidField('service_period.to', issue);
}

/**
 * Who may edit an account: nobody the System Account or a linked account (409), nobody their own
 * primary account (403, decision 017: a partner's own account is the system's to change), whoever
 * may manage it.
 */
export function assertEditable(principal: Principal, account: AccountRow): void {
  if (account.system_account) throw new ApiError(409, 'The System Account cannot be edited.');
  // The external identity product owns a linked account's data; an edit here would be overwritten
  // there, or contradict it (the console shows such an account read-only).
  if (account.federation_status === 'linked') {
    throw new ApiError(
      409,
      'The account is linked to an external identity product: change it there, or unlink it first.',
    );
  }
  assertNotOwnAccount(principal, account, 'edit');
  assertManageable(principal, account, 'edit');
}

/**
 * The 403 of a partner acting on its own primary account. Account scope is refused for its scope
 * first, which says more; system scope's own account is the System Account, refused with a 409.
 */
function assertNotOwnAccount(principal: Principal, account: AccountRow, action: AccountAction): void {
  if (principal.accessScope !== 'account' && account.id === principal.primaryAccountId) {
    throw new ApiError(403, `You cannot ${action} your own primary account.`, { code: 'ownAccount' });
  }
}

/**
 * Who may deactivate or reactivate an account: whoever may edit it, linked or not (the platform, not
 * the identity product, decides who may use it), but never the System Account.
 */
export function assertStatusChangeable(
  principal: Principal,
  account: AccountRow,
  action: 'deactivate' | 'reactivate',
): void {
  if (account.system_account) throw new ApiError(409, `The System Account cannot be ${action}d.`);
  assertNotOwnAccount(principal, account, action);
  assertManageable(principal, account, action);
}

/** The 409 of deactivating a partner account while accounts under it are still active. */
export function partnerHasActiveAccounts(): ApiError {
  return new ApiError(409, 'The partner account has active accounts; deactivate them first.', {
    code: 'partnerHasActiveAccounts',
  });
}

/** The 409 of reactivating an account whose partner account is inactive. */
export function partnerInactive(): ApiError {
  return new ApiError(409, 'The partner account of this account is inactive; reactivate it first.', {
    code: 'partnerInactive',
  });
}

/** The partner a new account goes under, as far as the caller's scope decides it. */
export function partnerOfNewAccount(principal: Principal, form: TenantCreate): string | null {
  const requested = form.partner_account_id ?? null;
  switch (principal.accessScope) {
    case 'account':
      throw scopeForbids(principal, 'create');
    case 'partner':
      if (form.type !== 'standard') throw new ApiError(403, 'A partner can create only standard accounts.');
      if (requested !== null && requested !== principal.primaryAccountId) {
        throw new ApiError(403, 'A partner can create accounts only under its own partner account.');
      }
      return principal.primaryAccountId;
    case 'system':
      if (form.type === 'partner' && requested !== null) {
        throw new ApiError(400, 'partner_account_id: a partner account cannot be under another partner', {
          field: 'partner_account_id',
          code: 'invalidValue',
        });
      }
      return requested;
  }
}

/** The 400 of a new account whose partner is missing, inactive or not a partner. */
export function partnerNotActive(): ApiError {
  return new ApiError(400, 'partner_account_id: must name an active partner account', {
    field: 'partner_account_id',
    code: 'invalidValue',
  });
}

/**
 * Who may delete an account: no account-scope user, nobody the System Account or their own primary
 * account, a partner only the accounts under it.
 */
export function assertDeletable(principal: Principal, account: AccountRow): void {
  if (principal.accessScope === 'account') throw scopeForbids(principal, 'delete');
  if (account.system_account) throw new ApiError(409, 'The System Account cannot be deleted.');
  if (account.id === principal.primaryAccountId) {
    throw new ApiError(409, 'Your own primary account cannot be deleted.');
  }
  assertManageable(principal, account, 'delete');
}

/** The 409 of deleting a partner account whose accounts are not deleted with it. */
export function partnerHasAccounts(partnerName: string): ApiError {
  return new ApiError(409, `Partner account "${partnerName}" has accounts; delete or move them first.`);
}

/** Who may unlink an account from its external identity product: whoever manages a linked account. */
export function assertUnlinkable(principal: Principal, account: AccountRow): void {
  assertManageable(principal, account, 'unlink');
  if (account.federation_status !== 'linked') {
    throw new ApiError(409, 'The account is not linked to an external identity product.');
  }
}

/** The identity product may link any account but the System Account. */
export function assertLinkable(account: AccountRow): void {
  if (account.system_account) {
    throw new ApiError(409, 'The System Account cannot be linked to an external identity product.');
  }
}
