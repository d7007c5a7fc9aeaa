import {
  type DiscardReason,
  type OfflineDatabase,
  openOfflineDatabase,
} from '../../../contract/offline-storage.ts';

/** Whether this browser can keep sealed data at all (private windows and old engines may not). */
function offlineStorageAvailable(): boolean {
  return typeof indexedDB !== 'undefined' && typeof crypto !== 'undefined' && crypto.subtle !== undefined;
}

/**
 * The page's handle to the shared database, opened once and again after another tab or a new worker
 * upgraded its layout. `discarded` is told when an unreadable or differently shaped database was
 * thrown away, to say so to the user.
 */
export class DatabaseHandle {
  #opening: Promise<OfflineDatabase | null> | null = null;

  constructor(private readonly discarded: (reason: DiscardReason) => void) {}

  /** The database; `null` when the browser has none or refuses it, and the console then works without offline data. */
  open(): Promise<OfflineDatabase | null> {
    if (!offlineStorageAvailable()) return Promise.resolve(null);
    this.#opening ??= openOfflineDatabase(this.discarded).then(
      (database) => {
        // Another tab or a new worker upgrading the layout: let it, and open again when next asked.
        database.addEventListener('versionchange', () => {
          database.close();
          this.#opening = null;
        });
        return database;
      },
      () => {
        this.#opening = null;
        return null;
      },
    );
    return this.#opening;
  }
}
