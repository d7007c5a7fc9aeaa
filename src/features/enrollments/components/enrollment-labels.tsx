import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { EnrollmentStatus, SeatKind } from '../../../../contract/schemas/enrollments.ts';
import { StatusBadge, type StatusTone } from '../../../components/status-badge.tsx';
import './enrollments.css';

/** The names of an enrollment's statuses (decision 021). */
export const ENROLLMENT_STATUS_LABELS: Readonly<Record<EnrollmentStatus, MessageDescriptor>> = {
  pending: msg`Pending`,
  issued: msg`Issued`,
  redeemed: msg`Redeemed`,
  cancelled: msg`Cancelled`,
  expired: msg`Expired`,
};

const TONES: Readonly<Record<EnrollmentStatus, StatusTone>> = {
  pending: 'waiting',
  issued: 'good',
  redeemed: 'good',
  cancelled: 'bad',
  expired: 'warning',
};

/** What holds the certificate: a person of the account or one of its devices. */
export const SEAT_KIND_LABELS: Readonly<Record<SeatKind, MessageDescriptor>> = {
  user: msg`Person`,
  device: msg`Device`,
};

/**
 * An enrollment's status in its colour: waiting blue, issued and redeemed green, cancelled red, expired
 * gold, always with its name, so the colour never carries it alone.
 */
export function EnrollmentStatusBadge({ status }: { status: EnrollmentStatus }) {
  const { i18n } = useLingui();
  return (
    <StatusBadge tone={TONES[status]} status={status} marker={`enrollment-status--${status}`}>
      {i18n._(ENROLLMENT_STATUS_LABELS[status])}
    </StatusBadge>
  );
}
