import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { today } from '../../../lib/dates.ts';
import { readStored, USER_STORAGE_KEYS, userStorageKey, writeStored } from '../../../lib/storage.ts';
import { accountExpiryNotice, accountExpiryNoticeState } from '../account-expiry.ts';

/**
 * Shown until dismissed (C-41). The dismissal is kept per user and per state of the notice: another
 * user of the browser still gets their own banner, and a new state (expired after expiring, another
 * end date) shows again.
 */
export function AccountExpiryBanner({ profile }: { profile: Profile }) {
  const { t } = useLingui();
  // The flag as written on this page too, so that dismissing works when storage refuses writes.
  const [dismissedHere, setDismissedHere] = useState<string | null>(null);
  const notice = accountExpiryNotice(profile, today());
  if (!notice) return null;
  const key = userStorageKey(USER_STORAGE_KEYS.expiryNotification, profile.id);
  const flag = accountExpiryNoticeState(notice);
  if (readStored(key) === flag || dismissedHere === `${key}=${flag}`) return null;
  const days = notice.kind === 'expiring' ? notice.days : 0;
  const dismiss = () => {
    writeStored(key, flag);
    setDismissedHere(`${key}=${flag}`);
  };
  return (
    <Alert tone="error" onDismiss={dismiss} dismissLabel={t`Dismiss the account expiry notice`}>
      {notice.kind === 'expired' ? (
        <Trans>Your account has expired.</Trans>
      ) : (
        plural(days, {
          0: 'Your account expires today.',
          one: 'Your account expires in # day.',
          other: 'Your account expires in # days.',
        })
      )}
    </Alert>
  );
}
