import { createFileRoute, redirect } from '@tanstack/react-router';
import { SetupUserPage } from '../features/setup/components/setup-user-page.tsx';
import { guardSetupPage } from '../features/setup/guard.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

export const Route = createFileRoute('/setup-user')({
  beforeLoad: async ({ context }) => {
    const status = await guardSetupPage(context.session);
    // The server refuses the administrator until a licence is installed; start there instead.
    if (!status.licence_installed) throw redirect({ to: '/setup-license', replace: true });
  },
  loader: () => loadAreaCatalog('public-pages'),
  component: SetupUserPage,
});
