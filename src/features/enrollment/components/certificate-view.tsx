import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { CertificateStatusBadge } from '../../../components/certificate-status-badge.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import type { CertificateSummary } from '../certificate.ts';

/** Step 4 (overview §4): the certificate now in the keystore, read from the CA's answer. */
export function CertificateView({ pem, keystoreLabel }: { pem: string; keystoreLabel: string }) {
  const { i18n } = useLingui();
  const [certificate, setCertificate] = useState<CertificateSummary | null>(null);
  useEffect(() => {
    let current = true;
    // @peculiar/x509 loads with this step only, after its reflect polyfill (certificate.ts).
    void import('../certificate.ts').then(({ summarizeCertificate }) => {
      if (current) setCertificate(summarizeCertificate(pem));
    });
    return () => {
      current = false;
    };
  }, [pem]);
  const when = (date: Date) => i18n.date(date, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      <p>
        <Trans>
          The certificate is issued and stored next to its key in {keystoreLabel}. You can close this page.
        </Trans>
      </p>
      {certificate ? (
        <dl className="details enrollment__certificate">
          <DetailsRow label={<Trans>Status</Trans>}>
            <CertificateStatusBadge status={certificate.status} />
          </DetailsRow>
          <DetailsRow label={<Trans>Subject</Trans>}>{certificate.subject}</DetailsRow>
          <DetailsRow label={<Trans>Issuer</Trans>}>{certificate.issuer}</DetailsRow>
          <DetailsRow label={<Trans>Valid from</Trans>}>{when(certificate.notBefore)}</DetailsRow>
          <DetailsRow label={<Trans>Valid until</Trans>}>{when(certificate.notAfter)}</DetailsRow>
          <DetailsRow label={<Trans>Serial number</Trans>}>
            <code>{certificate.serialNumber}</code>
          </DetailsRow>
        </dl>
      ) : null}
    </>
  );
}
