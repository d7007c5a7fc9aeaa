import { createFileRoute } from '@tanstack/react-router';
import { SetupLicencePage } from '../features/setup/components/setup-licence-page.tsx';
import { guardSetupPage } from '../features/setup/guard.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

export const Route = createFileRoute('/setup-license')({
  beforeLoad: ({ context }) => guardSetupPage(context.session),
  loader: () => loadAreaCatalog('public-pages'),
  component: SetupLicencePage,
});
