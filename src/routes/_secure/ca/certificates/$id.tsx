import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { CERTIFICATE_READ_FLAGS } from '../../../../features/certificates/access.ts';
import { CertificateDetailsPage } from '../../../../features/certificates/components/certificate-details-page.tsx';
import { CertificatesErrorPage } from '../../../../features/certificates/components/certificates-error-page.tsx';
import { certificateQueryOptions } from '../../../../features/certificates/queries.ts';

export const Route = createFileRoute('/_secure/ca/certificates/$id')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(certificateQueryOptions(params.id));
  },
  errorComponent: CertificatesErrorPage,
  component: function CertificateDetailsRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={CERTIFICATE_READ_FLAGS}>
        <CertificateDetailsPage id={id} />
      </RequirePermissions>
    );
  },
});
