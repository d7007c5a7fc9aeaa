import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import { type TenantListQueryInput, tenantListSchema } from '../../../contract/schemas/tenants.ts';
import { setActiveAccountId } from '../../lib/active-account.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { usePermissionFlags } from '../../lib/permissions.tsx';
import { ACCOUNT_SCOPED_KEY } from '../../lib/query-client.ts';
import { type RecentAccount, rememberRecentAccount } from '../../lib/recent-accounts.ts';

/** Up to this many accounts the switcher is a menu of them all; with more, it searches. */
export const ACCOUNT_MENU_LIMIT = 50;
/** Results of one search: enough to choose from, few enough to read through. */
export const ACCOUNT_SEARCH_LIMIT = 20;

/** Not account-scoped: which accounts the user reaches does not depend on the selected one. */
const switcherKeys = {
  all: () => ['account-switcher'] as const,
  reachable: () => [...switcherKeys.all(), 'reachable'] as const,
  search: (name: string) => [...switcherKeys.all(), 'search', name] as const,
};

function listTenants(query: TenantListQueryInput, signal: AbortSignal) {
  return apiRequest('GET', apiPaths.tenants.list, { query, schema: tenantListSchema, signal });
}

/**
 * The first active accounts the viewer reaches, by name, and how many there are: one call that gives
 * both the menu's entries and whether a menu is enough.
 */
export function reachableAccountsQueryOptions() {
  return queryOptions({
    queryKey: switcherKeys.reachable(),
    queryFn: ({ signal }) =>
      listTenants(
        { limit: String(ACCOUNT_MENU_LIMIT), offset: '0', sort: 'name:asc', active: 'true' },
        signal,
      ),
    staleTime: 5 * 60_000,
  });
}

export function accountSearchQueryOptions(name: string) {
  return queryOptions({
    queryKey: switcherKeys.search(name),
    queryFn: ({ signal }) =>
      listTenants({ name, active: 'true', limit: String(ACCOUNT_SEARCH_LIMIT) }, signal),
    placeholderData: keepPreviousData,
    // What the user typed to find an account is a passing lookup, not data to keep on the device.
    meta: { persist: false },
  });
}

export type AccountSwitcherMode = { kind: 'menu'; accounts: readonly RecentAccount[] } | { kind: 'search' };

/**
 * A menu of every account while there are at most 50, else a search. System and partner scope reach
 * accounts their profile does not list, so the server is asked how many; account scope switches
 * between the profile's accounts. Until the answer arrives the profile's accounts are offered.
 */
export function useAccountSwitcherMode(profile: Profile): AccountSwitcherMode {
  const { canViewAccount } = usePermissionFlags();
  const reachesMore = profile.access_scope !== 'account' && canViewAccount;
  const { data: reachable } = useQuery({ ...reachableAccountsQueryOptions(), enabled: reachesMore });
  const count = Math.max(profile.accounts.length, reachesMore ? (reachable?.total ?? 0) : 0);
  if (canViewAccount && count > ACCOUNT_MENU_LIMIT) return { kind: 'search' };
  const listed = new Set(profile.accounts.map((account) => account.id));
  const others = reachesMore ? (reachable?.items ?? []).filter((account) => !listed.has(account.id)) : [];
  return { kind: 'menu', accounts: [...profile.accounts, ...others] };
}

/** Works in another account from now on, remembered as the most recent choice. */
export function useSwitchAccount(userId: string) {
  const queryClient = useQueryClient();
  return (account: RecentAccount) => {
    // Remembered first: the active account is resolved against the recent ones once it changes.
    rememberRecentAccount(userId, account);
    setActiveAccountId(account.id);
    void queryClient.invalidateQueries({ queryKey: ACCOUNT_SCOPED_KEY });
  };
}
