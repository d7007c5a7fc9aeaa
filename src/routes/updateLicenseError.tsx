import { createFileRoute } from '@tanstack/react-router';
import { LicenceErrorPage } from '../features/welcome/components/licence-error-page.tsx';

export const Route = createFileRoute('/updateLicenseError')({
  component: LicenceErrorPage,
});
