import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from './storage.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

/**
 * The account the header's switcher selected. Kept in storage so a reload stays on the same account;
 * whoever reads it must check it is still one of the profile's accounts.
 */
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function storedActiveAccountId(): string | null {
  return readStored(STORAGE_KEYS.activeAccount);
}

export function setActiveAccountId(accountId: string | null): void {
  writeStored(STORAGE_KEYS.activeAccount, accountId);
  for (const listener of listeners) listener();
}

/** The selected account when the user still has it, else the primary account. */
export function resolveActiveAccountId(
  stored: string | null,
  accounts: readonly { id: string }[],
  primaryAccountId: string,
): string {
  return stored && accounts.some((account) => account.id === stored) ? stored : primaryAccountId;
}

export function useStoredActiveAccountId(): string | null {
  return useSyncExternalStore(subscribe, storedActiveAccountId, () => null);
}
