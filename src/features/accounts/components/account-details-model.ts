import {
  DEFAULT_PLATFORM_LOCALE,
  intlLocaleOf,
  isPlatformLocale,
  LANGUAGE_NAMES,
} from '../../../../contract/locales.ts';
import type { PermissionFlags } from '../../../../contract/permissions.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { Tenant } from '../../../../contract/schemas/tenants.ts';
import { formatUserDate, parseCalendarDate } from '../../../lib/dates.ts';
import { canChangeAccountStatus, canEditAccount } from '../rules.ts';

type Viewer = Pick<Profile, 'access_scope' | 'primary_account_id'>;
type Flags = Pick<PermissionFlags, 'canManageAccount'>;

/** An account managed by an external identity product: it is edited there, not here (H-06, H-07). */
export function isLinkedAccount(account: Pick<Tenant, 'federation_status'>): boolean {
  return account.federation_status === 'linked';
}

/**
 * Unlinking changes who manages the account, so it takes the same right as editing it (the spec
 * leaves the permission open) on top of the server saying the link can be undone.
 */
export function canUnlinkAccount(viewer: Viewer, flags: Flags, account: Tenant): boolean {
  return account.can_account_be_unlinked && canEditAccount(viewer, flags, account);
}

/**
 * Deleting takes the right to change the account's status: never the System Account or the viewer's
 * own primary account, whose loss would cut off the people doing it.
 */
export function canDeleteAccount(viewer: Viewer, flags: Flags, account: Tenant): boolean {
  return canChangeAccountStatus(viewer, flags, account);
}

/**
 * Whether the viewer may open the edit form: by the H-18 rule, which leaves out a partner's own
 * account (decision 017), and never the System Account, which the server refuses to edit.
 */
export function canOpenAccountEdit(viewer: Viewer, flags: Flags, account: Tenant): boolean {
  return !account.system_account && canEditAccount(viewer, flags, account);
}

/**
 * The language's own name with its tag, so screen readers pronounce it in that language; an account
 * without one speaks English (US), the default (G-08). An unknown code is shown as it is.
 */
export function languageOf(locale: string): { name: string; lang: string | undefined } {
  const code = locale === '' ? DEFAULT_PLATFORM_LOCALE : locale;
  if (!isPlatformLocale(code)) return { name: code, lang: undefined };
  return { name: LANGUAGE_NAMES[code], lang: intlLocaleOf(code) };
}

/** A date of the account in the viewer's own date format (G-07); `null` when there is none. */
export function formatAccountDate(
  value: string | null,
  profile: Pick<Profile, 'date_format'>,
  consoleLocale: string,
): string | null {
  const date = parseCalendarDate(value);
  return date ? formatUserDate(date, profile.date_format, consoleLocale) : null;
}
