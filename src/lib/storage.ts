import * as v from 'valibot';
import type { STORAGE_KEYS } from './storage-keys.ts';

/**
 * Preferences of one user: the key ends with the user's id, so someone else signing in on the same
 * browser starts from the defaults and never sees them.
 */
export const USER_STORAGE_KEYS = {
  /** Filters and sort of the accounts list. */
  accountsList: 'trust-console.accounts-list',
  /** Expiry banners of the accounts list the user dismissed, with the count each showed then. */
  accountsExpiryBanners: 'trust-console.accounts-expiry-banners',
  /** Accounts last chosen in the header's switcher, most recent first. */
  recentAccounts: 'trust-console.recent-accounts',
  /** The state of the account expiry banner the user last dismissed (`accountExpiryNoticeState`). */
  expiryNotification: 'trust-console.expiry-notification',
  /** The columns the user chose to see in Reporting › Logging. */
  auditLogColumns: 'trust-console.audit-log-columns',
} as const;
type UserStorageKeyPrefix = (typeof USER_STORAGE_KEYS)[keyof typeof USER_STORAGE_KEYS];
type UserStorageKey = `${UserStorageKeyPrefix}.${string}`;

export function userStorageKey(prefix: UserStorageKeyPrefix, userId: string): UserStorageKey {
  return `${prefix}.${userId}`;
}

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS] | UserStorageKey;

/** Storage can be disabled or full (private windows, quotas); the console then behaves as if empty. */
export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Preferences are a convenience; failing to keep one must not break the page.
  }
}

/**
 * A value stored as JSON, read back through its schema. Storage is input like any other: a value
 * edited by hand or written by an older console gives the fallback instead of reaching the screens.
 */
export function readStoredJson<TSchema extends v.GenericSchema>(
  key: StorageKey,
  schema: TSchema,
  fallback: v.InferOutput<TSchema>,
): v.InferOutput<TSchema> {
  const text = readStored(key);
  if (text === null) return fallback;
  try {
    const parsed = v.safeParse(schema, JSON.parse(text));
    return parsed.success ? parsed.output : fallback;
  } catch {
    return fallback;
  }
}

export function writeStoredJson(key: StorageKey, value: unknown): void {
  writeStored(key, JSON.stringify(value));
}
