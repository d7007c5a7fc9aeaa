import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { CERTIFICATE_READ_FLAGS } from '../../../../features/certificates/access.ts';
import { CertificatesErrorPage } from '../../../../features/certificates/components/certificates-error-page.tsx';
import { CertificatesPage } from '../../../../features/certificates/components/certificates-page.tsx';
import {
  certificateListQuery,
  certificateListSearchSchema,
} from '../../../../features/certificates/list-search.ts';
import { certificateListQueryOptions } from '../../../../features/certificates/queries.ts';

export const Route = createFileRoute('/_secure/ca/certificates/')({
  validateSearch: certificateListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(certificateListQueryOptions(certificateListQuery(deps)));
  },
  errorComponent: CertificatesErrorPage,
  component: function CertificatesRoute() {
    return (
      <RequirePermissions flags={CERTIFICATE_READ_FLAGS}>
        <CertificatesPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
