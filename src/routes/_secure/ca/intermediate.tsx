import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { CA_READ_FLAGS } from '../../../features/certificate-authority/access.ts';
import { CertificateAuthorityPage } from '../../../features/certificate-authority/components/certificate-authority-page.tsx';
import { certificateAuthoritiesQueryOptions } from '../../../features/certificate-authority/queries.ts';

export const Route = createFileRoute('/_secure/ca/intermediate')({
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData } }) => {
    await screenData.preload(certificateAuthoritiesQueryOptions());
  },
  component: function IntermediateCaRoute() {
    return (
      <RequirePermissions flags={[]} anyOf={CA_READ_FLAGS}>
        <CertificateAuthorityPage kind="issuing" />
      </RequirePermissions>
    );
  },
});
