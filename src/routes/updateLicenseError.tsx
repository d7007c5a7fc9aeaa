import { createFileRoute } from '@tanstack/react-router';
import { LicenceErrorPage } from '../features/welcome/components/licence-error-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

export const Route = createFileRoute('/updateLicenseError')({
  loader: () => loadAreaCatalog('public-pages'),
  component: LicenceErrorPage,
});
