import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';

/**
 * Three catalogs per language: `server` (below) and two of the console. `public` holds what the pages before sign-in say (and the shared
 * components and libraries they use): it is all the sign-in page loads, so it stays small however
 * many console screens are added. `console` holds the secure screens, and the shared components
 * and libraries only they use; the secure layout loads it before any of them renders
 * (src/routes/_secure.tsx).
 */
/** Shared components and libraries only the secure screens use: their words load with `console`. */
const secureOnlySources = [
  '<rootDir>/src/lib/offline',
  '<rootDir>/src/components/account-filter-field.tsx',
  '<rootDir>/src/components/account-picker.tsx',
  '<rootDir>/src/components/account-unavailable-page.tsx',
  '<rootDir>/src/components/aliases-editor.tsx',
  '<rootDir>/src/components/back-button.tsx',
  '<rootDir>/src/components/cached-data-notice.tsx',
  '<rootDir>/src/components/country-select.tsx',
  '<rootDir>/src/components/created-token.tsx',
  '<rootDir>/src/components/delete-dialog.tsx',
  '<rootDir>/src/components/list',
  '<rootDir>/src/components/forbidden-page.tsx',
  '<rootDir>/src/components/message-page.tsx',
  '<rootDir>/src/components/offline-notice.tsx',
  '<rootDir>/src/components/pending-sync-badge.tsx',
  '<rootDir>/src/components/require-permissions.tsx',
  '<rootDir>/src/components/role-picker.tsx',
  '<rootDir>/src/components/role-labels.ts',
  '<rootDir>/src/components/role-picker.tsx',
  '<rootDir>/src/components/route-error-page.tsx',
  '<rootDir>/src/components/section-card.tsx',
  '<rootDir>/src/components/section-placeholder.tsx',
  '<rootDir>/src/components/ui/pagination.tsx',
  '<rootDir>/src/components/trust-agent/trust-agent-panel.tsx',
];

const publicSources = [
  '<rootDir>/src/components',
  '<rootDir>/src/lib',
  '<rootDir>/src/main.tsx',
  '<rootDir>/src/routes/*.tsx',
  '<rootDir>/src/features/account-setup',
  '<rootDir>/src/features/enrollment',
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
    // The server's: the messages it mails, rendered in the recipient's language, and the bulk report's reasons
    // (docs/decisions/018-users-roles-and-tokens.md §6.4, read by server/i18n/catalog.ts).
    {
      path: '<rootDir>/server/i18n/locales/{locale}/server',
      include: ['<rootDir>/server/mail/messages.ts', '<rootDir>/server/bulk-import/reasons.ts'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/public',
      include: publicSources,
      exclude: ['<rootDir>/src/routes/_secure.tsx', ...secureOnlySources],
    },
    {
      path: '<rootDir>/src/locales/{locale}/console',
      include: [
        '<rootDir>/src/routes/_secure.tsx',
        '<rootDir>/src/routes/_secure',
        '<rootDir>/src/features',
        ...secureOnlySources,
      ],
      exclude: [
        '<rootDir>/src/features/account-setup',
        '<rootDir>/src/features/enrollment',
        '<rootDir>/src/features/session',
        '<rootDir>/src/features/setup',
        '<rootDir>/src/features/welcome',
      ],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
