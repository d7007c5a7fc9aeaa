import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';

/**
 * Two catalogs per language. `public` holds what the pages before sign-in say (and the shared
 * components and libraries they use): it is all the sign-in page loads, so it stays small however
 * many console screens are added. `console` holds the secure screens; the secure layout loads it
 * before any of them renders (src/routes/_secure.tsx).
 */
const publicSources = [
  '<rootDir>/src/components',
  '<rootDir>/src/lib',
  '<rootDir>/src/main.tsx',
  '<rootDir>/src/routes/*.tsx',
  '<rootDir>/src/features/session',
  '<rootDir>/src/features/setup',
  '<rootDir>/src/features/welcome',
  '<rootDir>/src/features/shell/components/root-layout.tsx',
  '<rootDir>/src/features/shell/components/not-found-page.tsx',
];

export default defineConfig({
  sourceLocale: DEFAULT_CONSOLE_LOCALE,
  locales: [...CONSOLE_LOCALES],
  fallbackLocales: { default: DEFAULT_CONSOLE_LOCALE },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/public',
      include: publicSources,
      exclude: ['<rootDir>/src/routes/_secure.tsx'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/console',
      include: ['<rootDir>/src/routes/_secure.tsx', '<rootDir>/src/routes/_secure', '<rootDir>/src/features'],
      exclude: [
        '<rootDir>/src/features/session',
        '<rootDir>/src/features/setup',
        '<rootDir>/src/features/welcome',
      ],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
