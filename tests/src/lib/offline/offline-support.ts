import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';
import { type OfflineDatabase, openOfflineDatabase } from '../../../../contract/offline-storage.ts';

/** A browser database of its own for each test (fake-indexeddb). */
export function freshIndexedDb(): void {
  vi.stubGlobal('indexedDB', new IDBFactory());
}

export function openDatabase(): Promise<OfflineDatabase> {
  return openOfflineDatabase();
}

/** A storage secret as the server hands it out: 32 random bytes, base64url without padding. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function plainQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } } });
}

/** The raw bytes of every value in a store, as text, to search for what must not be there. */
export async function storedText(
  database: OfflineDatabase,
  store: 'query-cache' | 'outbox',
): Promise<string> {
  const records = await database.getAll(store);
  const decoder = new TextDecoder('latin1');
  return records
    .map((record) => {
      const { sealed, ...readable } = record;
      return `${JSON.stringify(readable)}${decoder.decode(new Uint8Array(sealed.data))}`;
    })
    .join('\n');
}

/**
 * A service worker controlling the page, whose inbox is `posted`; jsdom has none. Returns the
 * restore.
 */
export function stubServiceWorker(posted: unknown[]): () => void {
  const serviceWorker = {
    controller: { postMessage: (message: unknown) => posted.push(message) },
    ready: new Promise(() => undefined),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  return () => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
  };
}
