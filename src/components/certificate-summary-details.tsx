import { Trans, useLingui } from '@lingui/react/macro';
import type { CertificateSummary } from '../lib/certificate-summary.ts';
import { CertificateStatusBadge } from './certificate-status-badge.tsx';
import { DetailsRow } from './details-row.tsx';

/**
 * A certificate the browser read (`summarizeCertificate`): its status, names, validity, serial
 * number and version, the same on every screen that shows one before the platform stores it.
 */
export function CertificateSummaryDetails({
  certificate,
  className,
}: {
  certificate: CertificateSummary;
  className?: string;
}) {
  const { i18n } = useLingui();
  const when = (date: Date) => i18n.date(date, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <dl className={className ? `details ${className}` : 'details'}>
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
      <DetailsRow label={<Trans>Version</Trans>}>{certificate.version}</DetailsRow>
    </dl>
  );
}
