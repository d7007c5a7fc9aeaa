import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { AuditStatus } from '../../../../contract/audit.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatTimestamp } from '../../../lib/dates.ts';
import { Temporal } from '../../../lib/temporal.ts';
import './audit-log.css';

/** The names of an event's outcomes (P-08). Actions and resource types keep the spec's codes, as exports do. */
export const AUDIT_STATUS_LABELS: Readonly<Record<AuditStatus, MessageDescriptor>> = {
  success: msg`Success`,
  failure: msg`Failure`,
};

/** Whether the event succeeded, green or red, always with its name. */
export function AuditStatusBadge({ status }: { status: AuditStatus }) {
  const { i18n } = useLingui();
  return (
    <StatusBadge
      tone={status === 'success' ? 'good' : 'bad'}
      status={status}
      marker={`audit-status--${status}`}
    >
      {i18n._(AUDIT_STATUS_LABELS[status])}
    </StatusBadge>
  );
}

/** When an event happened, `YYYY-MM-DD HH:mm:ss` in the viewer's time zone (P-10, D-11). */
export function auditTime(occurredAt: string): string {
  return formatTimestamp(Temporal.Instant.from(occurredAt), Temporal.Now.timeZoneId());
}
