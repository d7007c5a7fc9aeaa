import { ACCOUNT_EXPIRY_WARNING_DAYS } from '../../../contract/constants.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import { parseCalendarDate } from '../../lib/dates.ts';
import type { Temporal } from '../../lib/temporal.ts';

/** `endsOn` is the last day of the account's service period (`YYYY-MM-DD`), when it has one. */
export type AccountExpiryNotice =
  | { kind: 'expired'; endsOn: string | null }
  | { kind: 'expiring'; days: number; endsOn: string };

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
  const end = parseCalendarDate(account.service_period.to);
  if (!account.active) return { kind: 'expired', endsOn: end?.toString() ?? null };
  if (!end) return null;
  const days = today.until(end, { largestUnit: 'days' }).days;
  return days >= 0 && days <= ACCOUNT_EXPIRY_WARNING_DAYS
    ? { kind: 'expiring', days, endsOn: end.toString() }
    : null;
}

/**
 * What a dismissal of the banner holds for (C-41): its kind and the end date it is about, not the
 * day count, which changes every day. A user who dismissed "expires on the 11th" still sees
 * "expired", and sees "expiring" again once the period is moved to another end date.
 */
export function accountExpiryNoticeState(notice: AccountExpiryNotice): string {
  return `${notice.kind}:${notice.endsOn ?? 'open'}`;
}
