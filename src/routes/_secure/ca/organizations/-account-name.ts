import { useQuery } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../../features/accounts/queries.ts';
import { useProfile } from '../../../../lib/current-user.ts';
import { usePermissionFlags } from '../../../../lib/permissions.tsx';

/**
 * The name of the account whose organizations are shown. The user's own accounts are in the
 * profile; another account (a system or partner user arriving from its details page) is read when
 * the user may view accounts. Until then, or without that permission, the id stands in for it.
 */
export function useAccountName(accountId: string): string {
  const profile = useProfile();
  const canViewAccount = usePermissionFlags().canViewAccount;
  const own = profile.accounts.find((account) => account.id === accountId);
  const other = useQuery({ ...accountQueryOptions(accountId), enabled: !own && canViewAccount });
  return own?.display_name ?? other.data?.display_name ?? accountId;
}
