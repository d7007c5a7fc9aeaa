/**
 * What the console keeps in localStorage for the browser, under one prefix (overview §9 "stored
 * keys"); each user's own preferences are `USER_STORAGE_KEYS` (storage.ts). Apart from the code that
 * reads storage so that the build can name them too, in the script it writes into index.html
 * (features/session/sign-in-preview-script.ts).
 */
export const STORAGE_KEYS = {
  language: 'trust-console.language',
  theme: 'trust-console.theme',
  activeAccount: 'trust-console.active-account',
  /** Set once this browser has seen the platform with its first administrator (features/setup). */
  platformConfigured: 'trust-console.platform-configured',
} as const;
