import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { ACCOUNT_EXPIRY_BANNER_DAYS } from '../../../../contract/constants.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { readStoredJson, USER_STORAGE_KEYS, userStorageKey, writeStoredJson } from '../../../lib/storage.ts';
import { expiringAccountsQueryOptions } from '../queries.ts';

type BannerDays = (typeof ACCOUNT_EXPIRY_BANNER_DAYS)[number];

/** Within 30 days is urgent, within 60 a warning (F-31, F-32). */
const TONES: Readonly<Record<BannerDays, 'error' | 'warning'>> = { 30: 'error', 60: 'warning' };

/** For each banner, the count it showed when the user dismissed it. */
const dismissedSchema = v.object({
  '30': v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  '60': v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
type Dismissed = v.InferOutput<typeof dismissedSchema>;

interface ExpiryBannersProps {
  userId: string;
  /** Shows the active accounts that end within that many days (F-34). */
  onShowExpiring: (days: BannerDays) => void;
}

/**
 * The system scope's banners about accounts that expire soon (F-30 … F-36). A dismissed banner stays
 * away across reloads while its count does not grow: more accounts running out is news again.
 */
export function ExpiryBanners({ userId, onShowExpiring }: ExpiryBannersProps) {
  const { t } = useLingui();
  const { data: counts } = useQuery(expiringAccountsQueryOptions());
  const storageKey = userStorageKey(USER_STORAGE_KEYS.accountsExpiryBanners, userId);
  const [dismissed, setDismissed] = useState<Dismissed>(() =>
    readStoredJson(storageKey, dismissedSchema, {}),
  );
  if (!counts) return null;

  const dismiss = (days: BannerDays, count: number) => {
    const next = { ...dismissed, [days]: count };
    writeStoredJson(storageKey, next);
    setDismissed(next);
  };

  return ACCOUNT_EXPIRY_BANNER_DAYS.map((days) => {
    const count = counts[days];
    const dismissedAt = dismissed[days];
    if (count === 0 || (dismissedAt !== undefined && count <= dismissedAt)) return null;
    return (
      <Alert
        key={days}
        tone={TONES[days]}
        onDismiss={() => dismiss(days, count)}
        dismissLabel={t`Dismiss the notice about accounts expiring within ${days} days`}
      >
        <button type="button" className="expiry-banner__show" onClick={() => onShowExpiring(days)}>
          <span className="expiry-banner__message">
            {plural(count, {
              one: `# account expires within ${days} days`,
              other: `# accounts expire within ${days} days`,
            })}
          </span>{' '}
          <span className="expiry-banner__action">
            <Trans>Show them</Trans>
          </span>
        </button>
      </Alert>
    );
  });
}
