import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ClientCertificateDialog } from '../../../components/client-certificate/client-certificate-dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useEnrolleeClientCertificate } from '../mutations.ts';
import { enrollmentClientAuthQueryOptions } from '../queries.ts';

/**
 * The client certificate an administrator asked for the enrollee (decision 033): made here, by the
 * enrollee's browser, which keeps the key and hands over a PKCS#12 file; the platform sees only the
 * certificate request. Nothing is shown when none was asked for.
 */
export function ClientCertificateOffer({ enrollmentId, code }: { enrollmentId: string; code: string }) {
  const titleId = useId();
  const offer = useQuery(enrollmentClientAuthQueryOptions(enrollmentId, code));
  const [open, setOpen] = useState(false);
  const issuer = useEnrolleeClientCertificate(enrollmentId, code);
  if (!offer.data) return null;
  const { user_name: userName, account_name: accountName, status } = offer.data;
  return (
    <section className="enrollment__client-certificate" aria-labelledby={titleId}>
      <h2 id={titleId} className="enrollment__heading">
        <Trans>Client certificate for signing in</Trans>
      </h2>
      {status === 'requested' ? (
        <>
          <p>
            <Trans>
              {accountName} asks for a client certificate in your name ({userName}), to sign in to the console
              with it. Your browser makes its key and gives it to you in a password-protected file; the
              platform only receives a certificate request.
            </Trans>
          </p>
          <p>
            <Button variant="secondary" onClick={() => setOpen(true)}>
              <Trans>Make my client certificate</Trans>
            </Button>
          </p>
        </>
      ) : (
        <p>
          <Trans>
            Your client certificate ({userName}) was made. Import the file you downloaded into the browser you
            sign in with.
          </Trans>
        </p>
      )}
      <ClientCertificateDialog issuer={issuer} userName={userName} open={open} onOpenChange={setOpen} />
    </section>
  );
}
