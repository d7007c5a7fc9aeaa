import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb';

/**
 * The one IndexedDB database the console's pages and its service worker share: storage keys, the
 * persisted query cache and the outbox. Everything a user could read (query data, queued changes)
 * is sealed with AES-GCM under a storage key of that user's session; records name their user only
 * by an owner tag, a SHA-256 of the user id (docs/decisions/013-offline-console.md).
 */
export const OFFLINE_DATABASE_NAME = 'trust-console';
/** Raise when a store or record shape changes: an older database is then discarded, not misread. */
export const OFFLINE_DATABASE_VERSION = 1;

/**
 * WebCrypto's key type under every configuration that compiles this file: the DOM and worker
 * libraries call it `CryptoKey`, Node's types only declare it under `crypto.webcrypto`.
 */
type CryptoKey = Parameters<typeof crypto.subtle.encrypt>[1];

export interface SealedValue {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

/**
 * A storage key of one sign-in. `key` is the non-extractable AES-GCM key the browser uses; it is
 * destroyed (set to `null`, or the record deleted) before the data it sealed. `wrapped` is the same
 * key wrapped (AES-KW) with the user's storage secret, which only the server holds and hands to
 * that user's session: after sign-out with kept changes, only the same user's next sign-in can
 * unwrap it again.
 */
export interface StorageKeyRecord {
  keyId: string;
  owner: string;
  key: CryptoKey | null;
  wrapped: ArrayBuffer;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds after which the key is destroyed and its data with it. */
  expiresAt: number;
}

export interface QueryCacheRecord {
  owner: string;
  keyId: string;
  /** Epoch milliseconds of the last write, for the "data as of" notice. */
  savedAt: number;
  /** The dehydrated client (with its buster and timestamp), sealed. */
  sealed: SealedValue;
}

/**
 * A queued change. What scheduling needs stays readable; the request itself (method, URL, headers,
 * body, summary, account) and any server answer are sealed.
 */
export interface OutboxRecord {
  id: string;
  sequence: number;
  owner: string;
  keyId: string;
  state: 'pending' | 'sending' | 'held' | 'conflict' | 'failed';
  attempts: number;
  /** Epoch milliseconds; `null` when the entry waits for the user, not the clock. */
  nextAttemptAt: number | null;
  /**
   * The last attempt got no answer at all: any sign that the network is back makes the entry due at
   * once. Absent (records of earlier builds) or false: the server answered and asked for the wait.
   */
  waitingForNetwork?: boolean;
  createdAt: number;
  sealed: SealedValue;
}

/** The user whose cache an offline start may show: the last one who signed in on this browser. */
export interface LastSessionRecord {
  name: 'last-session';
  owner: string;
  /** Epoch milliseconds. */
  signedInAt: number;
}

export interface OfflineSchema extends DBSchema {
  keys: { key: string; value: StorageKeyRecord; indexes: { owner: string } };
  'query-cache': { key: string; value: QueryCacheRecord };
  outbox: { key: string; value: OutboxRecord; indexes: { owner: string; sequence: number } };
  meta: { key: string; value: LastSessionRecord };
}

export type OfflineDatabase = IDBPDatabase<OfflineSchema>;

/** Why the stored data was thrown away, for the notice the console shows once. */
export type DiscardReason = 'older-version' | 'unreadable';

function createStores(database: IDBPDatabase<OfflineSchema>): void {
  for (const name of database.objectStoreNames) database.deleteObjectStore(name);
  database.createObjectStore('keys', { keyPath: 'keyId' }).createIndex('owner', 'owner');
  database.createObjectStore('query-cache', { keyPath: 'owner' });
  const outbox = database.createObjectStore('outbox', { keyPath: 'id' });
  outbox.createIndex('owner', 'owner');
  outbox.createIndex('sequence', 'sequence', { unique: true });
  database.createObjectStore('meta', { keyPath: 'name' });
}

function open(): Promise<OfflineDatabase> {
  return openDB<OfflineSchema>(OFFLINE_DATABASE_NAME, OFFLINE_DATABASE_VERSION, {
    upgrade: (database) => createStores(database),
  });
}

/**
 * The database belongs to a newer build of the console, opened in another tab or installed as the
 * new service worker. This build must neither read nor delete it: it may hold that build's queued
 * changes. The page carries on without offline data until it reloads into the newer build.
 */
export class NewerOfflineDatabaseError extends Error {
  override name = 'NewerOfflineDatabaseError';
}

/**
 * Opens the shared database. A database of an older layout is rebuilt empty by the upgrade (its
 * records would be misread); one the browser cannot open is deleted and made again. `onDiscard`
 * learns of both so the console can say so once. A database of a newer layout is left alone:
 * `NewerOfflineDatabaseError`.
 */
export async function openOfflineDatabase(
  onDiscard?: (reason: DiscardReason) => void,
): Promise<OfflineDatabase> {
  let olderLayout = false;
  try {
    const database = await openDB<OfflineSchema>(OFFLINE_DATABASE_NAME, OFFLINE_DATABASE_VERSION, {
      upgrade: (upgrading, oldVersion) => {
        olderLayout = oldVersion > 0;
        createStores(upgrading);
      },
    });
    if (olderLayout) onDiscard?.('older-version');
    return database;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'VersionError') {
      throw new NewerOfflineDatabaseError('The offline data belongs to a newer build of the console.');
    }
    onDiscard?.('unreadable');
    await deleteDB(OFFLINE_DATABASE_NAME);
    return open();
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The owner tag of a user: records never carry the user id itself. */
export async function ownerTag(userId: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`trust-console.owner:${userId}`));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function sealJson(key: CryptoKey, value: unknown): Promise<SealedValue> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    encoder.encode(JSON.stringify(value)),
  );
  return { iv, data };
}

/** The sealed value, or `undefined` when it does not open with this key (tampered, or another key). */
export async function openSealedJson(key: CryptoKey, sealed: SealedValue): Promise<unknown> {
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.iv }, key, sealed.data);
    return JSON.parse(decoder.decode(plain));
  } catch {
    return undefined;
  }
}

/** The live key of a user's current session: the newest one not destroyed and not expired. */
export async function liveStorageKey(
  database: OfflineDatabase,
  owner: string,
  now: number,
): Promise<StorageKeyRecord | undefined> {
  const records = await database.getAllFromIndex('keys', 'owner', owner);
  return records
    .filter((record) => record.key !== null && record.expiresAt > now)
    .sort((a, b) => b.createdAt - a.createdAt)[0];
}
