import { Trans } from '@lingui/react/macro';
import type { PublicClientAuthOffer } from '../../../../contract/schemas/enrollments.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { ClientCertificateOffer } from './client-certificate-offer.tsx';
import './enrollment.css';

/**
 * A used enrollment link that still offers the client certificate an administrator asked for
 * (decision 033): the enrollment itself is done, so the page holds the offer only.
 */
export function ClientCertificatePage({
  enrollmentId,
  code,
  offer,
}: {
  enrollmentId: string;
  code: string;
  offer: PublicClientAuthOffer;
}) {
  const account = offer.account_name;
  return (
    <PublicLayout title={<Trans>Your client certificate</Trans>} subtitle={account}>
      <p>
        <Trans>
          The certificate enrollment of this link is complete; the link only makes your client certificate.
        </Trans>
      </p>
      <ClientCertificateOffer enrollmentId={enrollmentId} code={code} />
    </PublicLayout>
  );
}
