import type { ApplicationCode } from './permissions.ts';

/**
 * Licences and features per account (account administration §2–§9; decision 022): the licence types
 * of each application, the account features, and the rules of a licence change, run by the form and
 * by the server alike.
 */

/** -1: no limit (J-05), labelled "Unlimited". */
export const UNLIMITED = -1;

/** The largest quantity a change may carry: a 32-bit signed integer, the pools' column type. */
export const MAX_LICENCE_QUANTITY = 2_147_483_647;

/** The licence type no reset touches (J-13, J-18). */
export const HARDWARE_KEY_PAIR_UNITS = 'hardware_key_pair_units';

/**
 * What each application counts. `metered`: the platform counts the use itself (decision 022 §1);
 * the other types' use is reported by their application. The account management application has no
 * licence types: its licence call is skipped (J-38).
 */
export const LICENCE_TYPES = {
  account_manager: [],
  ca_manager: [{ id: 'certificates', metered: true }],
  secure_software_manager: [
    { id: 'signing_keys', metered: false },
    { id: 'signatures', metered: false },
  ],
  device_manager: [{ id: 'iot_devices', metered: false }],
  enterprise_manager: [{ id: 'managed_endpoints', metered: false }],
  document_signing_manager: [
    { id: 'document_signatures', metered: false },
    { id: HARDWARE_KEY_PAIR_UNITS, metered: false },
  ],
  discovery_automation_manager: [{ id: 'discovered_hosts', metered: false }],
  device_trust_manager: [{ id: 'devices', metered: true }],
} as const satisfies Record<ApplicationCode, readonly { id: string; metered: boolean }[]>;

export type LicensedApplication = {
  [A in ApplicationCode]: (typeof LICENCE_TYPES)[A] extends readonly [] ? never : A;
}[ApplicationCode];
export type LicenceType = (typeof LICENCE_TYPES)[ApplicationCode][number]['id'];

/** Every licence type of every application, in catalogue order. */
export const ALL_LICENCE_TYPES: readonly { app: ApplicationCode; id: LicenceType; metered: boolean }[] = (
  Object.entries(LICENCE_TYPES) as [ApplicationCode, readonly { id: LicenceType; metered: boolean }[]][]
).flatMap(([app, types]) => types.map((type) => ({ app, ...type })));

export function licenceTypesOf(app: ApplicationCode): readonly LicenceType[] {
  return LICENCE_TYPES[app].map((type) => type.id);
}

/** The spec's edit options per licence type (J-11). */
export const LICENCE_CHANGE_OPTIONS = ['noChange', 'add', 'subtract', 'reset'] as const;
export type LicenceChangeOption = (typeof LICENCE_CHANGE_OPTIONS)[number];

/** One licence type of one account as the edit sees it. */
export interface LicenceRowState {
  feature: LicenceType;
  /** What the parent can still give: -1 when the parent's pool is unlimited. */
  allocationAvailable: number;
  totalAllocated: number;
  used: number;
  /** -1 when the total is unlimited; never below 0 (see `overUse`). */
  remaining: number;
}

/** What is left of a total: -1 for an unlimited one, 0 once the use reached it or went past it. */
export function licenceRemaining(totalAllocated: number, used: number): number {
  return totalAllocated === UNLIMITED ? UNLIMITED : Math.max(0, totalAllocated - used);
}

/**
 * How far the use went past the total: an application reports its use on its own, and a reset may
 * bring a total under it, so the account can hold less than it uses. 0 within the total.
 */
export function licenceOverUse(totalAllocated: number, used: number): number {
  return totalAllocated === UNLIMITED ? 0 : Math.max(0, used - totalAllocated);
}

/**
 * The options offered for one licence type (J-11 … J-17): add only while the parent has some to give;
 * subtract only while some of the total is neither used nor unlimited; reset only on accounts with a
 * document signing manager licence and never for hardware key-pair units. With nothing allocated
 * anywhere, or the parent's pool spent and the account's all used, neither add nor subtract is left
 * (decision 022 §2).
 */
export function licenceChangeOptions(
  row: LicenceRowState,
  account: { hasDocumentSigningLicence: boolean },
): LicenceChangeOption[] {
  const options: LicenceChangeOption[] = ['noChange'];
  if (row.allocationAvailable !== 0) options.push('add');
  if (row.remaining > 0) options.push('subtract');
  if (account.hasDocumentSigningLicence && row.feature !== HARDWARE_KEY_PAIR_UNITS) options.push('reset');
  return options;
}

/** Why a typed quantity is refused; null when it is a whole number the option accepts. */
export type LicenceQuantityIssue =
  | { code: 'positiveNumber' }
  | { code: 'cannotExceed'; maximum: number }
  | { code: 'belowMinimum'; minimum: number };

/**
 * The change input (J-19 … J-24): digits only without a leading zero (a lone 0 only for a reset);
 * add 1 … allocation available; subtract up to the total allocated and up to what is not used;
 * reset 0 … allocation available + total allocated.
 */
export function licenceQuantityIssue(
  option: Exclude<LicenceChangeOption, 'noChange'>,
  text: string,
  row: LicenceRowState,
): LicenceQuantityIssue | null {
  if (!/^(0|[1-9][0-9]*)$/.test(text)) return { code: 'positiveNumber' };
  const quantity = Number(text);
  if (quantity > MAX_LICENCE_QUANTITY) return { code: 'cannotExceed', maximum: MAX_LICENCE_QUANTITY };
  if (option === 'reset') {
    if (row.allocationAvailable === UNLIMITED || row.totalAllocated === UNLIMITED) return null;
    const maximum = row.allocationAvailable + row.totalAllocated;
    return quantity > maximum ? { code: 'cannotExceed', maximum } : null;
  }
  if (quantity === 0) return { code: 'positiveNumber' };
  if (option === 'add') {
    if (row.allocationAvailable === UNLIMITED) return null;
    return quantity > row.allocationAvailable
      ? { code: 'cannotExceed', maximum: row.allocationAvailable }
      : null;
  }
  if (row.totalAllocated === UNLIMITED) return null;
  const maximum = Math.min(row.totalAllocated, row.totalAllocated - row.used);
  return quantity > maximum ? { code: 'cannotExceed', maximum } : null;
}

/** The signed change a row's option and quantity make: what the history records (J-42). */
export function signedChange(
  option: Exclude<LicenceChangeOption, 'noChange'>,
  quantity: number,
  totalAllocated: number,
): number {
  if (option === 'add') return quantity;
  if (option === 'subtract') return -quantity;
  return quantity - totalAllocated;
}

/** Account features (K-03, K-07); decision 022 §4. */
export const ACCOUNT_FEATURES = [
  { id: 'public_issuance', app: 'ca_manager', defaultFeature: true, displayOrder: 1 },
  { id: 'trial_account', app: 'secure_software_manager', defaultFeature: false, displayOrder: 1 },
  { id: 'key_locker_account', app: 'secure_software_manager', defaultFeature: false, displayOrder: 2 },
  { id: 'em_discovery', app: 'enterprise_manager', defaultFeature: true, displayOrder: 1 },
  { id: 'em_automation', app: 'enterprise_manager', defaultFeature: false, displayOrder: 2 },
  { id: 'em_reporting', app: 'enterprise_manager', defaultFeature: false, displayOrder: 3 },
] as const satisfies readonly {
  id: string;
  app: ApplicationCode;
  defaultFeature: boolean;
  displayOrder: number;
}[];
export type AccountFeatureId = (typeof ACCOUNT_FEATURES)[number]['id'];
export const ACCOUNT_FEATURE_IDS = ACCOUNT_FEATURES.map((feature) => feature.id) as [
  AccountFeatureId,
  ...AccountFeatureId[],
];

/** The application whose features share one enable-all toggle (K-14). */
export const ENABLE_ALL_APPLICATION: ApplicationCode = 'enterprise_manager';

/** The product name a key-locker account sees for the Software Trust Manager application. */
export const KEY_LOCKER_APPLICATION_NAME = 'KeyLocker';

export interface FeatureState {
  feature_id: AccountFeatureId;
  enabled: boolean;
  end_date: string | null;
}

/** Why a features update is refused, by the feature it names (K-10 … K-12). */
export type FeatureIssue =
  | { feature: AccountFeatureId; code: 'trialNeedsEndDate' }
  | { feature: AccountFeatureId; code: 'featureEndDateAfterAccount' }
  | { feature: AccountFeatureId; code: 'featuresExclusive' }
  | { feature: AccountFeatureId; code: 'publicIssuanceRequired' };

/** The part of a feature an issue is about, which the request names as `N.enabled` or `N.end_date`. */
export function featureIssuePart(code: FeatureIssue['code']): 'enabled' | 'end_date' {
  return code === 'trialNeedsEndDate' || code === 'featureEndDateAfterAccount' ? 'end_date' : 'enabled';
}

/**
 * The features an account would have after a change, checked against each other and the account's end
 * date (`YYYY-MM-DD`); the first issue, or null.
 */
export function featuresIssue(next: readonly FeatureState[], accountEndDate: string): FeatureIssue | null {
  const byId = new Map(next.map((feature) => [feature.feature_id, feature]));
  const trial = byId.get('trial_account');
  const keyLocker = byId.get('key_locker_account');
  if (trial?.enabled && keyLocker?.enabled) return { feature: 'trial_account', code: 'featuresExclusive' };
  if (trial?.enabled && !trial.end_date) return { feature: 'trial_account', code: 'trialNeedsEndDate' };
  for (const feature of next) {
    if (feature.end_date && feature.end_date > accountEndDate) {
      return { feature: feature.feature_id, code: 'featureEndDateAfterAccount' };
    }
  }
  if (keyLocker?.enabled && byId.get('public_issuance')?.enabled === false) {
    return { feature: 'public_issuance', code: 'publicIssuanceRequired' };
  }
  return null;
}

/** K-08/K-09: turning one of key-locker and trial on turns the other off. */
export function withFeatureToggled(
  current: readonly FeatureState[],
  featureId: AccountFeatureId,
  enabled: boolean,
): FeatureState[] {
  const exclusive: Partial<Record<AccountFeatureId, AccountFeatureId>> = {
    trial_account: 'key_locker_account',
    key_locker_account: 'trial_account',
  };
  const other = enabled ? exclusive[featureId] : undefined;
  return current.map((feature) =>
    feature.feature_id === featureId
      ? { ...feature, enabled }
      : feature.feature_id === other
        ? { ...feature, enabled: false }
        : feature,
  );
}
