import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import {
  CERTIFICATE_EXPORT_FORMATS,
  type CertificateExportFormat,
  type DistinguishedName,
} from '../../../../contract/schemas/certificate-authority.ts';
import type { Certificate } from '../../../../contract/schemas/certificates.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { CertificateStatusBadge } from '../../../components/certificate-status-badge.tsx';
import { notifyError } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatTimestamp } from '../../../lib/dates.ts';
import { downloadFromApi } from '../../../lib/download.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { Temporal } from '../../../lib/temporal.ts';
import { CERTIFICATE_REVOKE_FLAGS } from '../access.ts';
import { certificateQueryOptions } from '../queries.ts';
import { CERTIFICATE_SOURCE_LABELS, REVOCATION_REASON_LABELS } from './certificate-labels.ts';
import { CertificateRevokeDialog } from './certificate-revoke-dialog.tsx';
import './certificates.css';
import { DetailsRow } from '../../../components/details-row.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

/** A moment as `YYYY-MM-DD HH:mm:ss` in the viewer's time zone. */
function moment(value: string): string {
  return formatTimestamp(Temporal.Instant.from(value), Temporal.Now.timeZoneId());
}

/** The parts of an issuer or subject name (overview §3); a part the name does not hold says so. */
function NameSection({ id, title, name }: { id: string; title: ReactNode; name: DistinguishedName }) {
  const part = (value: string | null) => value ?? <Trans>Not given</Trans>;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="details">
        <DetailsRow label={<Trans>Distinguished name</Trans>}>
          <span className="certificate-serial">{name.distinguished_name}</span>
        </DetailsRow>
        <DetailsRow label={<Trans>Common name</Trans>}>{part(name.common_name)}</DetailsRow>
        <DetailsRow label={<Trans>Organizational unit</Trans>}>{part(name.organizational_unit)}</DetailsRow>
        <DetailsRow label={<Trans>Organization</Trans>}>{part(name.organization)}</DetailsRow>
        <DetailsRow label={<Trans>Locality</Trans>}>{part(name.locality)}</DetailsRow>
        <DetailsRow label={<Trans>State</Trans>}>{part(name.state)}</DetailsRow>
        <DetailsRow label={<Trans>Country</Trans>}>{part(name.country)}</DetailsRow>
        <DetailsRow label={<Trans>E-mail</Trans>}>{part(name.email)}</DetailsRow>
      </dl>
    </section>
  );
}

const FORMAT_MEDIA_TYPES: Record<CertificateExportFormat, string> = {
  pem: 'application/x-pem-file',
  der: 'application/pkix-cert',
  p7b: 'application/pkcs7-mime',
};

const FORMAT_LABELS: Record<CertificateExportFormat, ReactNode> = {
  pem: <Trans>Download PEM</Trans>,
  der: <Trans>Download DER</Trans>,
  p7b: <Trans>Download PKCS#7 with chain</Trans>,
};

/**
 * One certificate the platform CA issued: its status, the parsed issuer and subject, validity,
 * serial, fingerprints and algorithms, its downloads (PEM, DER, PKCS#7 with the chain), and Revoke
 * for whoever holds revoke certificate.
 */
export function CertificateDetailsPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  const query = useSuspenseQuery(certificateQueryOptions(id));
  const certificate: Certificate = query.data;
  const { details } = certificate;
  const permissions = usePermissionFlags();
  const revokes = CERTIFICATE_REVOKE_FLAGS.every((flag) => permissions[flag]);
  const [revoking, setRevoking] = useState(false);
  const [downloading, setDownloading] = useState<CertificateExportFormat | null>(null);

  const download = async (format: CertificateExportFormat) => {
    if (downloading) return;
    setDownloading(format);
    try {
      await downloadFromApi(apiPaths.certificates.export, {
        query: { format, id },
        accept: FORMAT_MEDIA_TYPES[format],
        fallbackFileName: `${certificate.serial_number}.${format === 'der' ? 'cer' : format}`,
      });
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <section className="page certificate-details" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>{certificate.common_name}</PageTitle>
        <CertificateStatusBadge status={certificate.status} />
      </div>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      <p className="certificates__actions">
        {CERTIFICATE_EXPORT_FORMATS.map((format) => (
          <NeedsConnection key={format}>
            {(gate) => (
              <Button
                variant="secondary"
                busy={downloading === format}
                {...gate.controlProps}
                onClick={() => void download(format)}
              >
                {FORMAT_LABELS[format]}
              </Button>
            )}
          </NeedsConnection>
        ))}
        {revokes && certificate.status !== 'revoked' ? (
          <NeedsConnection>
            {(gate) => (
              <Button className="button--danger" {...gate.controlProps} onClick={() => setRevoking(true)}>
                <Trans>Revoke</Trans>
              </Button>
            )}
          </NeedsConnection>
        ) : null}
      </p>
      <section aria-labelledby="certificate">
        <h2 id="certificate">
          <Trans>Certificate</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Status</Trans>}>
            <CertificateStatusBadge status={certificate.status} />
          </DetailsRow>
          {certificate.revoked_at !== null ? (
            <>
              <DetailsRow label={<Trans>Revoked on</Trans>}>{moment(certificate.revoked_at)}</DetailsRow>
              <DetailsRow label={<Trans>Revocation reason</Trans>}>
                {certificate.revocation_reason
                  ? i18n._(REVOCATION_REASON_LABELS[certificate.revocation_reason])
                  : null}
              </DetailsRow>
            </>
          ) : null}
          <DetailsRow label={<Trans>Serial number</Trans>}>
            <span className="certificate-serial">{details.serial_number}</span>
          </DetailsRow>
          <DetailsRow label={<Trans>Valid from</Trans>}>{moment(details.validFrom)}</DetailsRow>
          <DetailsRow label={<Trans>Valid to</Trans>}>{moment(details.validTo)}</DetailsRow>
          <DetailsRow label={<Trans>Within its validity</Trans>}>
            {details.isValid ? <Trans>Yes</Trans> : <Trans>No</Trans>}
          </DetailsRow>
          <DetailsRow label={<Trans>Version</Trans>}>{details.version}</DetailsRow>
          <DetailsRow label={<Trans>Key algorithm</Trans>}>{details.key_algorithm}</DetailsRow>
          <DetailsRow label={<Trans>Signature algorithm</Trans>}>{details.signature_algorithm}</DetailsRow>
          <DetailsRow label={<Trans>SHA-256 fingerprint</Trans>}>
            <span className="certificate-serial">{details.sha256_fingerprint}</span>
          </DetailsRow>
          <DetailsRow label={<Trans>SHA-1 fingerprint</Trans>}>
            <span className="certificate-serial">{details.sha1_fingerprint}</span>
          </DetailsRow>
          <DetailsRow label={<Trans>Account</Trans>}>
            {certificate.account ? certificate.account.name : <Trans>Account deleted</Trans>}
          </DetailsRow>
          <DetailsRow label={<Trans>Profile</Trans>}>
            {certificate.profile_name ?? <Trans>None</Trans>}
          </DetailsRow>
          <DetailsRow label={<Trans>Issued for</Trans>}>
            {i18n._(CERTIFICATE_SOURCE_LABELS[certificate.source])}
          </DetailsRow>
          <DetailsRow label={<Trans>Issued</Trans>}>{moment(certificate.created_at)}</DetailsRow>
        </dl>
      </section>
      <div className="certificate-details__names">
        <NameSection id="subject" title={<Trans>Subject</Trans>} name={details.subject} />
        <NameSection id="issuer" title={<Trans>Issuer</Trans>} name={details.issuer} />
      </div>
      <CertificateRevokeDialog
        certificate={revoking ? certificate : null}
        onClose={() => setRevoking(false)}
      />
    </section>
  );
}
