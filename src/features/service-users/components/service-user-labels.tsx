import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ServiceUserStatus } from '../../../../contract/schemas/service-users.ts';
import './service-users.css';

export const SERVICE_USER_STATUS_LABELS: Readonly<Record<ServiceUserStatus, MessageDescriptor>> = {
  enabled: msg`Enabled`,
  disabled: msg`Disabled`,
  expired: msg`Expired`,
};

export function ServiceUserStatusBadge({ status }: { status: ServiceUserStatus }) {
  const { i18n } = useLingui();
  return (
    <span className={`service-user-status service-user-status--${status}`}>
      {i18n._(SERVICE_USER_STATUS_LABELS[status])}
    </span>
  );
}
