import {
  LICENCE_TYPES,
  type LicenceChangeOption,
  licenceChangeOptions,
  licenceQuantityIssue,
  MAX_LICENCE_QUANTITY,
  signedChange,
} from '../../contract/licences.ts';
import type { ApplicationCode } from '../../contract/permissions.ts';
import type { LicenceChange, LicenceUsageReport } from '../../contract/schemas/licences.ts';
import { invalidField } from '../http/validate.ts';
import type { AccountLicenceState } from './pools.ts';
import type { HistoryEntry } from './repository.ts';

/**
 * The rules of a licence change (decision 022 §2), the same functions the form runs
 * (`contract/licences.ts`), checked again here on the numbers read under the change's locks.
 */

/**
 * 400 for a row naming a type the application does not have, or a type named twice: input that is
 * wrong whatever is stored, refused before anything is looked up.
 */
export function assertTypesOfApplication(app: ApplicationCode, changes: LicenceChange['changes']): void {
  const types: readonly string[] = LICENCE_TYPES[app].map((type) => type.id);
  const seen = new Set<string>();
  changes.forEach((change, index) => {
    if (!types.includes(change.feature) || seen.has(change.feature)) {
      throw invalidField(`changes.${index}.feature`, 'invalidValue');
    }
    seen.add(change.feature);
  });
}

/**
 * 400 for a use report naming a type the application does not have, a type named twice, or a metered
 * type, whose use is the platform's own count.
 */
export function assertReportableTypes(app: ApplicationCode, usage: LicenceUsageReport['usage']): void {
  const types: readonly { id: string; metered: boolean }[] = LICENCE_TYPES[app];
  const seen = new Set<string>();
  usage.forEach((entry, index) => {
    const type = types.find((candidate) => candidate.id === entry.feature);
    if (!type || type.metered || seen.has(entry.feature)) {
      throw invalidField(`usage.${index}.feature`, 'invalidValue');
    }
    seen.add(entry.feature);
  });
}

/**
 * The history entries the change makes, each type's signed change and new total; 400 naming the row's
 * option when it is not offered, or its quantity when it is out of range or, unconfirmed, below the
 * use. Rows that leave a total as it was make none.
 */
export function plannedChanges(
  state: AccountLicenceState,
  { changes, confirm_over_use }: LicenceChange,
): HistoryEntry[] {
  return changes.flatMap((change, index) => {
    const row = state.rows.find((candidate) => candidate.feature === change.feature);
    if (!row) throw invalidField(`changes.${index}.feature`, 'invalidValue');
    const offered: LicenceChangeOption[] = licenceChangeOptions(row, state);
    if (!offered.includes(change.option)) throw invalidField(`changes.${index}.option`, 'optionNotOffered');
    const issue = licenceQuantityIssue(change.option, String(change.quantity), row);
    if (issue) throw invalidField(`changes.${index}.quantity`, issue.code);
    // A partner's total never falls below what its accounts hold (its use): the system pool would
    // otherwise count as free what they still hold. Subtract keeps this by its own rule; a reset here.
    if (change.option === 'reset' && state.account.type === 'partner' && change.quantity < row.used) {
      throw invalidField(`changes.${index}.quantity`, 'belowMinimum');
    }
    // An account's application goes on counting what it uses: a reset under that use leaves the account
    // over its licence, which only a caller who said so may do.
    if (change.option === 'reset' && change.quantity < row.used && !confirm_over_use) {
      throw invalidField(`changes.${index}.quantity`, 'belowUse');
    }
    const quantity = signedChange(change.option, change.quantity, row.totalAllocated);
    // From an unlimited pool an add has no bound of its own, but a total is a 32-bit integer.
    if (row.totalAllocated + quantity > MAX_LICENCE_QUANTITY) {
      throw invalidField(`changes.${index}.quantity`, 'cannotExceed');
    }
    return quantity === 0
      ? []
      : [{ app: state.app, feature: change.feature, quantity, limit: row.totalAllocated + quantity }];
  });
}
