import { createFileRoute } from '@tanstack/react-router';
import { SetupLicencePage } from '../features/setup/components/setup-licence-page.tsx';
import { guardSetupPage } from '../features/setup/guard.ts';

export const Route = createFileRoute('/setup-license')({
  beforeLoad: ({ context }) => guardSetupPage(context.session),
  component: SetupLicencePage,
});
