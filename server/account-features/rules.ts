import {
  type AccountFeatureId,
  type FeatureIssue,
  type FeatureState,
  featureIssuePart,
  featuresIssue,
  withFeatureToggled,
} from '../../contract/licences.ts';
import type { AccountFeatureUpdate } from '../../contract/schemas/licences.ts';
import { mayManageAccount } from '../authorization/account-reach.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import type { FeatureSetRow } from './repository.ts';

/**
 * The rules of account features (account administration §4–§6; decision 022 §4), run on the features
 * an account would have after a change. The form runs the same functions of `contract/licences.ts`.
 */

/** An account without an end date runs on: no feature end date is after it. */
const NO_END = '9999-12-31';

/**
 * Who may change the features of an account: not a partner its own primary account (K-15: its
 * features are the system's to change), a partner only the accounts under it, no account scope.
 */
export function assertFeaturesEditable(principal: Principal, account: FeatureSetRow): void {
  if (principal.accessScope === 'partner' && account.id === principal.primaryAccountId) {
    throw new ApiError(403, 'A partner cannot change the features of its own primary account.', {
      code: 'ownAccount',
    });
  }
  if (!mayManageAccount(principal, account)) {
    throw new ApiError(
      403,
      principal.accessScope === 'account'
        ? 'Account-scope users cannot change the features of accounts.'
        : 'A partner can change the features only of the accounts under its partner account.',
    );
  }
}

/** The field of the request an issue names: the feature's entry in the list, else the feature itself. */
function issueField(update: AccountFeatureUpdate, feature: AccountFeatureId, code: FeatureIssue['code']) {
  const index = update.findIndex((entry) => entry.feature_id === feature);
  return `${index === -1 ? feature : index}.${featureIssuePart(code)}`;
}

/**
 * The account's features once `update` is applied, or a 400 naming the entry at fault: a feature
 * listed twice, trial and key-locker both turned on (K-08, K-09: turning one on turns the other off,
 * so asking for both is a contradiction), and the rules of `featuresIssue` (K-10 … K-12).
 */
export function featuresAfter(account: FeatureSetRow, update: AccountFeatureUpdate): FeatureState[] {
  const seen = new Set<AccountFeatureId>();
  update.forEach((entry, index) => {
    if (seen.has(entry.feature_id)) throw invalidField(`${index}.feature_id`, 'invalidValue');
    seen.add(entry.feature_id);
  });
  const asked = (id: AccountFeatureId) => update.some((entry) => entry.feature_id === id && entry.enabled);
  if (asked('trial_account') && asked('key_locker_account')) {
    throw invalidField(issueField(update, 'trial_account', 'featuresExclusive'), 'featuresExclusive');
  }
  let next: FeatureState[] = account.features;
  for (const entry of update) {
    next = withFeatureToggled(next, entry.feature_id, entry.enabled).map((feature) =>
      feature.feature_id === entry.feature_id ? { ...feature, end_date: entry.end_date } : feature,
    );
  }
  const issue = featuresIssue(next, account.service_to ?? NO_END);
  if (issue) throw invalidField(issueField(update, issue.feature, issue.code), issue.code);
  return next;
}
