/** Everything the console keeps in localStorage, under one prefix (overview §9 "stored keys"). */
export const STORAGE_KEYS = {
  language: 'trust-console.language',
  theme: 'trust-console.theme',
  activeAccount: 'trust-console.active-account',
  expiryNotification: 'trust-console.expiry-notification',
} as const;
type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

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
