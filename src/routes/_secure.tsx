import { createFileRoute, redirect } from '@tanstack/react-router';
import { consoleLocaleFor } from '../../contract/locales.ts';
import { encodeSignInState } from '../../contract/schemas/identity.ts';
import { AppShell } from '../features/shell/components/app-shell.tsx';
import {
  activeAccountIdOf,
  applicationsQueryOptions,
  permissionsQueryOptions,
  profileQueryOptions,
} from '../lib/current-user.ts';
import { activateLocale, loadConsoleCatalog, storedLanguage } from '../lib/i18n.ts';
import { ensureSession } from '../lib/session.ts';

export const Route = createFileRoute('/_secure')({
  beforeLoad: async ({ location }) => {
    if (!(await ensureSession())) {
      throw redirect({
        to: '/login',
        search: { state: encodeSignInState({ return_path: location.publicHref }) },
      });
    }
  },
  loader: async ({ context: { queryClient } }) => {
    const profile = await queryClient.ensureQueryData(profileQueryOptions());
    const accountId = activeAccountIdOf(profile);
    if (!storedLanguage()) await activateLocale(consoleLocaleFor(profile.locale));
    await Promise.all([
      loadConsoleCatalog(),
      queryClient.ensureQueryData(permissionsQueryOptions(profile.access_scope, accountId)),
      queryClient.ensureQueryData(applicationsQueryOptions(accountId)),
    ]);
  },
  component: AppShell,
});
