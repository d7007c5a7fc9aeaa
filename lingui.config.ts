import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';

/**
 * The console's catalogs, one set per language beside the server's (below), so each page loads the
 * texts of its own screens and few others (docs/decisions/028-catalogs-by-area.md):
 * - `public`: the sign-in page, the root layout and what every page shares (the form kit, the
 *   error and validation texts). It is loaded with the language, before any page renders.
 * - `public-pages`, `enrollment`, `trust-agent`, `client-certificate`: the other pages before sign-in,
 *   loaded by their routes.
 * - `console`: the secure layout's: the shell, the components shared by secure screens, and the
 *   accounts area, the first screen after sign-in.
 * - `access`, `ca`, `reporting`, `profile`: one per area of src/routes/_secure, loaded by the area's
 *   layout route (`route.tsx`).
 * A module used by screens of several areas belongs to a catalog all of them load: `console`, or
 * `public` when pages before sign-in use it too. `npm run i18n:check` fails when a route reaches a
 * module whose texts it does not load (scripts/catalog-reach.ts).
 */
const src = (path: string) => `<rootDir>/src/${path}`;

/** Components of the pages before sign-in, the sign-in page's included; the rest of src/components is secure. */
const publicComponents = [
  'components/ui/form.tsx',
  'components/public-layout.tsx',
  'components/language-select.tsx',
  'components/update-banner.tsx',
  'components/new-password-fields.tsx',
  'components/certificate-status-badge.tsx',
  'components/certificate-summary-details.tsx',
].map(src);

/** Modules of an area's feature that the accounts screens (or several areas) use: loaded with `console`. */
const sharedFeatureModules = [
  'features/enrollments/components/enrollment-labels.tsx',
  'features/enrollments/components/enrollments-sections.tsx',
  'features/organizations/components/account-organizations.tsx',
].map(src);

/** An area's catalog: its routes and its features, less what `console` holds for all. */
function areaCatalog(name: string, paths: string[]) {
  return {
    path: `<rootDir>/src/locales/{locale}/${name}`,
    include: paths.map(src),
    exclude: sharedFeatureModules,
  };
}

export default defineConfig({
  sourceLocale: DEFAULT_CONSOLE_LOCALE,
  locales: [...CONSOLE_LOCALES],
  fallbackLocales: { default: DEFAULT_CONSOLE_LOCALE },
  catalogs: [
    // The server's: the messages it mails, rendered in the recipient's language, and the bulk report's reasons
    // (docs/decisions/037-mail.md §4, read by server/i18n/catalog.ts).
    {
      path: '<rootDir>/server/i18n/locales/{locale}/server',
      include: ['<rootDir>/server/mail/messages.ts', '<rootDir>/server/bulk-import/reasons.ts'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/public',
      include: [
        ...['main.tsx', 'lib', 'routes/*.tsx', 'features/session'].map(src),
        ...[
          'features/shell/components/console-frame.tsx',
          'features/shell/components/not-found-page.tsx',
        ].map(src),
        ...publicComponents,
      ],
      // The offline support is the secure console's.
      exclude: [src('routes/_secure.tsx'), src('lib/offline')],
    },
    areaCatalog('public-pages', ['features/setup', 'features/account-setup', 'features/welcome']),
    areaCatalog('enrollment', ['features/enrollment']),
    areaCatalog('trust-agent', ['components/trust-agent']),
    // The client-certificate dialog of the enrollment link; secure screens find its texts in `console`,
    // which holds every component.
    areaCatalog('client-certificate', ['components/client-certificate']),
    {
      path: '<rootDir>/src/locales/{locale}/console',
      include: [
        ...['routes/_secure.tsx', 'routes/_secure/accounts', 'routes/_secure/settings.tsx'].map(src),
        ...['components', 'features/shell', 'features/accounts', 'features/account-features'].map(src),
        src('features/licences'),
        ...sharedFeatureModules,
        src('lib/offline'),
      ],
      exclude: [
        ...publicComponents,
        src('components/trust-agent'),
        src('features/shell/components/console-frame.tsx'),
        src('features/shell/components/not-found-page.tsx'),
      ],
    },
    areaCatalog('access', [
      'routes/_secure/access',
      'features/users',
      'features/service-users',
      'features/roles',
      'features/api-tokens',
      'features/bulk-import',
      'features/client-auth',
    ]),
    areaCatalog('ca', [
      'routes/_secure/ca',
      'features/certificate-authority',
      'features/certificates',
      'features/certificate-profiles',
      'features/enrollments',
      'features/organizations',
      'features/client-tools',
    ]),
    areaCatalog('reporting', ['routes/_secure/reporting', 'features/audit-log']),
    areaCatalog('profile', ['routes/_secure/profile', 'features/profile']),
  ],
  format: formatter({ lineNumbers: false }),
});
