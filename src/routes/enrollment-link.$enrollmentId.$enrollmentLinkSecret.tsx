import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PublicLayout } from '../components/public-layout.tsx';
import { CertificateInstall } from '../features/enrollment/components/certificate-install.tsx';

/**
 * Public: installs the certificate of an issued enrollment into the keystore holding its key
 * (account administration §7). The link's secret is the enrollment's mailed code (decision 021 §6).
 */
export const Route = createFileRoute('/enrollment-link/$enrollmentId/$enrollmentLinkSecret')({
  component: function EnrollmentLinkRoute() {
    const { enrollmentId, enrollmentLinkSecret } = Route.useParams();
    return (
      <PublicLayout wide title={<Trans>Install your certificate</Trans>}>
        <CertificateInstall
          key={`${enrollmentId}/${enrollmentLinkSecret}`}
          enrollmentId={enrollmentId}
          code={enrollmentLinkSecret}
        />
      </PublicLayout>
    );
  },
});
