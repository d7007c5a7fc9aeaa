import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { CertificateStatus } from '../../../../contract/certificate-policy.ts';

/** The spec's status words (overview §3): issued green, revoked red, expired gold. */
const STATUS_LABELS: Record<CertificateStatus, MessageDescriptor> = {
  issued: msg`Issued`,
  revoked: msg`Revoked`,
  expired: msg`Expired`,
};

/**
 * A certificate's status as a badge whose word says the state, the colour only repeating it. Kept in
 * this feature until the console's shared certificate status badge lands; then this one goes.
 */
export function CertificateStatusBadge({ status }: { status: CertificateStatus }) {
  const { i18n } = useLingui();
  return (
    <span className={`client-auth__status client-auth__status--${status}`} data-status={status}>
      {i18n._(STATUS_LABELS[status])}
    </span>
  );
}
