import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { CertificateStatus } from '../../contract/certificate-policy.ts';
import { StatusBadge, type StatusTone } from './status-badge.tsx';

/** The names of the certificate statuses (overview §3, T-07). */
export const CERTIFICATE_STATUS_LABELS: Readonly<Record<CertificateStatus, MessageDescriptor>> = {
  issued: msg`Issued`,
  revoked: msg`Revoked`,
  expired: msg`Expired`,
};

const TONES: Readonly<Record<CertificateStatus, StatusTone>> = {
  issued: 'good',
  revoked: 'bad',
  expired: 'warning',
};

/**
 * A certificate's status in its colour (T-08): issued green, revoked red, expired gold, each from the
 * theme's certificate colours, and always with its name, so the colour never carries it alone.
 */
export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  const { i18n } = useLingui();
  return (
    <StatusBadge tone={TONES[status]} status={status} marker={`certificate-status--${status}`}>
      {i18n._(CERTIFICATE_STATUS_LABELS[status])}
    </StatusBadge>
  );
}
