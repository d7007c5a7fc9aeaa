import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { CertificateSummaryDetails } from '../../../components/certificate-summary-details.tsx';
import type { CertificateSummary } from '../../../lib/certificate-summary.ts';

/** Step 4 (overview §4): the certificate now in the keystore, read from the CA's answer. */
export function CertificateView({ pem, keystoreLabel }: { pem: string; keystoreLabel: string }) {
  const [certificate, setCertificate] = useState<CertificateSummary | null>(null);
  useEffect(() => {
    let current = true;
    // @peculiar/x509 loads with this step only, after its reflect polyfill (certificate-summary.ts).
    void import('../../../lib/certificate-summary.ts').then(({ summarizeCertificate }) => {
      if (current) setCertificate(summarizeCertificate(pem));
    });
    return () => {
      current = false;
    };
  }, [pem]);
  return (
    <>
      <p>
        <Trans>
          The certificate is issued and stored next to its key in {keystoreLabel}. You can close this page.
        </Trans>
      </p>
      {certificate ? (
        <CertificateSummaryDetails certificate={certificate} className="enrollment__certificate" />
      ) : null}
    </>
  );
}
