import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';

export default defineConfig({
  sourceLocale: DEFAULT_CONSOLE_LOCALE,
  locales: [...CONSOLE_LOCALES],
  fallbackLocales: { default: DEFAULT_CONSOLE_LOCALE },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
