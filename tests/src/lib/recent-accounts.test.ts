// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetRecentAccount,
  RECENT_ACCOUNTS_LIMIT,
  recentAccounts,
  rememberRecentAccount,
} from '../../../src/lib/recent-accounts.ts';

const USER = 'user-1';
const account = (index: number) => ({ id: `account-${index}`, display_name: `Account ${index}` });

afterEach(() => window.localStorage.clear());

describe('recent accounts', () => {
  it('keeps the five last chosen, most recent first, each once', () => {
    for (const index of [1, 2, 3, 4, 5, 6, 3]) rememberRecentAccount(USER, account(index));
    expect(RECENT_ACCOUNTS_LIMIT).toBe(5);
    expect(recentAccounts(USER).map((recent) => recent.id)).toEqual([
      'account-3',
      'account-6',
      'account-5',
      'account-4',
      'account-2',
    ]);
  });

  it('keeps each user’s list apart', () => {
    rememberRecentAccount(USER, account(1));
    rememberRecentAccount('user-2', account(2));
    expect(recentAccounts(USER)).toEqual([account(1)]);
    expect(recentAccounts('user-2')).toEqual([account(2)]);
  });

  it('forgets an account the user can no longer reach', () => {
    rememberRecentAccount(USER, account(1));
    rememberRecentAccount(USER, account(2));
    forgetRecentAccount(USER, 'account-1');
    expect(recentAccounts(USER)).toEqual([account(2)]);
  });

  it('reads a list edited by hand as empty rather than trusting it', () => {
    window.localStorage.setItem(`trust-console.recent-accounts.${USER}`, '[{"id": 42}]');
    expect(recentAccounts(USER)).toEqual([]);
    window.localStorage.setItem(`trust-console.recent-accounts.${USER}`, 'not json');
    expect(recentAccounts(USER)).toEqual([]);
  });
});
