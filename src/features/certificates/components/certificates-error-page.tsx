import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The certificate routes' error page: the shared one, with the way back to the list. */
export function CertificatesErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Certificate not found</Trans>,
        text: <Trans>This certificate does not exist, or is not one you can see.</Trans>,
      }}
      failedTitle={<Trans>The certificate could not be loaded</Trans>}
      back={{ to: '/ca/certificates', label: <Trans>Go to certificates</Trans> }}
    />
  );
}
