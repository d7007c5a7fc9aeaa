import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { today } from '../../../lib/dates.ts';
import { readStored, STORAGE_KEYS, writeStored } from '../../../lib/storage.ts';
import { accountExpiryNotice } from '../account-expiry.ts';

/** Shown until dismissed; the stored flag keeps it away afterwards (C-41). */
export function AccountExpiryBanner({ profile }: { profile: Profile }) {
  const { t } = useLingui();
  const [dismissed, setDismissed] = useState(() => readStored(STORAGE_KEYS.expiryNotification) !== null);
  const notice = accountExpiryNotice(profile, today());
  if (!notice || dismissed) return null;
  const days = notice.kind === 'expiring' ? notice.days : 0;
  const dismiss = () => {
    writeStored(STORAGE_KEYS.expiryNotification, 'dismissed');
    setDismissed(true);
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
