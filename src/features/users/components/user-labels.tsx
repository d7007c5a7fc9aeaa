import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AccessScope } from '../../../../contract/permissions.ts';
import type { UserStatus } from '../../../../contract/schemas/users.ts';
import './administrators.css';

export const STATUS_LABELS: Readonly<Record<UserStatus, MessageDescriptor>> = {
  active: msg`Active`,
  pending: msg`Pending`,
  disabled: msg`Disabled`,
};

export const SCOPE_LABELS: Readonly<Record<AccessScope, MessageDescriptor>> = {
  system: msg`System`,
  partner: msg`Partner`,
  account: msg`Account`,
};

/**
 * A user's status as a badge, with "E-mail not verified" beside it when it applies: a user whose
 * address changed can still sign in, so the two are told apart (decision 018 §1).
 */
export function UserStatusBadge({ status, emailVerified }: { status: UserStatus; emailVerified: boolean }) {
  const { i18n } = useLingui();
  return (
    <span className="user-status">
      <span className={`user-status__badge user-status__badge--${status}`}>
        {i18n._(STATUS_LABELS[status])}
      </span>
      {emailVerified ? null : (
        <span className="user-status__note">
          <Trans>E-mail not verified</Trans>
        </span>
      )}
    </span>
  );
}
