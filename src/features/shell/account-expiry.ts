import type { Temporal } from 'temporal-polyfill';
import { ACCOUNT_EXPIRY_WARNING_DAYS } from '../../../contract/constants.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import { parseCalendarDate } from '../../lib/dates.ts';

export type AccountExpiryNotice = { kind: 'expired' } | { kind: 'expiring'; days: number };

/**
 * The banner of overview §4 for account-scope users, about their primary account: expired when it
 * is inactive, expiring when it ends within 30 days (C-39, C-40).
 */
export function accountExpiryNotice(
  profile: Pick<Profile, 'access_scope' | 'primary_account_id' | 'accounts'>,
  today: Temporal.PlainDate,
): AccountExpiryNotice | null {
  if (profile.access_scope !== 'account') return null;
  const account = profile.accounts.find((candidate) => candidate.id === profile.primary_account_id);
  if (!account) return null;
  if (!account.active) return { kind: 'expired' };
  const end = parseCalendarDate(account.service_period.to);
  if (!end) return null;
  const days = today.until(end, { largestUnit: 'days' }).days;
  return days >= 0 && days <= ACCOUNT_EXPIRY_WARNING_DAYS ? { kind: 'expiring', days } : null;
}
