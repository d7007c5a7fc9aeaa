import { createFileRoute } from '@tanstack/react-router';
import { CertificatePickupPage } from '../features/enrollment/components/certificate-pickup-page.tsx';

/** Public: the enrollment link, or its id and code from the mail, then the certificate's install. */
export const Route = createFileRoute('/certificate-pickup')({
  component: CertificatePickupPage,
});
