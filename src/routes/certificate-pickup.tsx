import { createFileRoute } from '@tanstack/react-router';
import { CertificatePickupPage } from '../features/enrollment/components/certificate-pickup-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

/** Public: the enrollment link, or its id and code from the mail, then the certificate's install. */
export const Route = createFileRoute('/certificate-pickup')({
  loader: () => loadAreaCatalog('enrollment'),
  component: CertificatePickupPage,
});
