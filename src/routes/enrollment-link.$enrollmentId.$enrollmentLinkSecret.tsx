import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PublicLayout } from '../components/public-layout.tsx';
import {
  CertificateInstall,
  type LoadedCertificate,
} from '../features/enrollment/components/certificate-install.tsx';
import { fetchIssuedCertificate } from '../features/enrollment/mutations.ts';
import { ApiError } from '../lib/api-client.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

/**
 * Public: installs the certificate of an issued enrollment into the keystore holding its key
 * (account administration §7). The link's secret is the enrollment's mailed code (decision 021 §6).
 */
export const Route = createFileRoute('/enrollment-link/$enrollmentId/$enrollmentLinkSecret')({
  // Asked once per visit: a wrong code counts against the enrollment's attempts (decision 021 §2).
  staleTime: Number.POSITIVE_INFINITY,
  loader: async ({ params }): Promise<LoadedCertificate> => {
    const [loaded] = await Promise.all([
      fetchIssuedCertificate(params.enrollmentId, params.enrollmentLinkSecret).then(
        (certificate) => ({ certificate }),
        (error: unknown) => {
          // The page's failed state shows why (publicEnrollment.certificateInstallationFailed).
          if (error instanceof ApiError) return { error };
          throw error;
        },
      ),
      loadAreaCatalog('enrollment'),
      loadAreaCatalog('trust-agent'),
    ]);
    return loaded;
  },
  component: function EnrollmentLinkRoute() {
    const { enrollmentId, enrollmentLinkSecret } = Route.useParams();
    return (
      <PublicLayout wide title={<Trans>Install your certificate</Trans>}>
        <CertificateInstall
          key={`${enrollmentId}/${enrollmentLinkSecret}`}
          loaded={Route.useLoaderData()}
          enrollmentId={enrollmentId}
          code={enrollmentLinkSecret}
        />
      </PublicLayout>
    );
  },
});
