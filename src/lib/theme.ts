import { readStored, writeStored } from './storage.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

export function storedTheme(): ThemePreference {
  const stored = readStored(STORAGE_KEYS.theme);
  return THEME_PREFERENCES.find((theme) => theme === stored) ?? 'system';
}

/**
 * `system` removes the attribute so the stylesheet's `prefers-color-scheme` rules decide; light and
 * dark pin the tokens through `data-theme` on <html>.
 */
export function applyTheme(theme: ThemePreference): void {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

export function chooseTheme(theme: ThemePreference): void {
  writeStored(STORAGE_KEYS.theme, theme === 'system' ? null : theme);
  applyTheme(theme);
}
