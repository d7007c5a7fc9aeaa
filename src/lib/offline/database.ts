import {
  type DiscardReason,
  type OfflineDatabase,
  openOfflineDatabase,
} from '../../../contract/offline-storage.ts';

/** Whether this browser can keep sealed data at all (private windows and old engines may not). */
export function offlineStorageAvailable(): boolean {
  return typeof indexedDB !== 'undefined' && typeof crypto !== 'undefined' && crypto.subtle !== undefined;
}

type DiscardListener = (reason: DiscardReason) => void;
let discardListener: DiscardListener | null = null;
let opening: Promise<OfflineDatabase | null> | null = null;

/** Told once when an unreadable or differently shaped database was thrown away, to say so to the user. */
export function onOfflineDataDiscarded(listener: DiscardListener | null): void {
  discardListener = listener;
}

/**
 * The shared database, opened once per page; `null` when the browser has none or refuses it, and the
 * console then works without offline data instead of failing.
 */
export function offlineDatabase(): Promise<OfflineDatabase | null> {
  if (!offlineStorageAvailable()) return Promise.resolve(null);
  opening ??= openOfflineDatabase((reason) => discardListener?.(reason)).then(
    (database) => {
      // Another tab or a new worker upgrading the layout: let it, and open again when next asked.
      database.addEventListener('versionchange', () => {
        database.close();
        opening = null;
      });
      return database;
    },
    () => {
      opening = null;
      return null;
    },
  );
  return opening;
}

/** For tests: forget the open database so the next call opens a fresh one. */
export function resetOfflineDatabase(): void {
  opening = null;
}
