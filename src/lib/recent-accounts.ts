import * as v from 'valibot';
import { readStoredJson, USER_STORAGE_KEYS, userStorageKey, writeStoredJson } from './storage.ts';

/** How many accounts the header's switcher offers as recently used. */
export const RECENT_ACCOUNTS_LIMIT = 5;

export interface RecentAccount {
  id: string;
  display_name: string;
}

const recentAccountsSchema = v.pipe(
  v.array(v.object({ id: v.pipe(v.string(), v.maxLength(64)), display_name: v.string() })),
  v.maxLength(RECENT_ACCOUNTS_LIMIT),
);

function keyOf(userId: string) {
  return userStorageKey(USER_STORAGE_KEYS.recentAccounts, userId);
}

/**
 * The accounts this user last switched to, most recent first. System and partner scope reach more
 * accounts than their profile lists; an account chosen through the switcher is remembered here, which
 * is also how the console keeps working in it after a reload.
 */
export function recentAccounts(userId: string): RecentAccount[] {
  return readStoredJson(keyOf(userId), recentAccountsSchema, []);
}

export function rememberRecentAccount(userId: string, account: RecentAccount): void {
  const others = recentAccounts(userId).filter((recent) => recent.id !== account.id);
  writeStoredJson(
    keyOf(userId),
    [{ id: account.id, display_name: account.display_name }, ...others].slice(0, RECENT_ACCOUNTS_LIMIT),
  );
}

/** An account the user can no longer reach (removed, or no longer the partner's) is not offered again. */
export function forgetRecentAccount(userId: string, accountId: string): void {
  writeStoredJson(
    keyOf(userId),
    recentAccounts(userId).filter((recent) => recent.id !== accountId),
  );
}
