import type { OfflineDatabase, StorageKeyRecord } from '../../../contract/offline-storage.ts';

/**
 * Storage keys of the offline data (docs/decisions/013-offline-console.md, "Console side").
 *
 * Each sign-in gets a fresh AES-GCM key. The browser keeps a non-extractable copy for use and the
 * same key wrapped with the user's storage secret, which only the server holds. Destroying is always
 * the key first and the data after, in separate transactions: interrupted in between, what is left is
 * ciphertext that nothing can open.
 */

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** The storage secret as a key that can only wrap and unwrap keys, never be read back. */
export function importStorageSecret(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64Url(secret), { name: 'AES-KW' }, false, [
    'wrapKey',
    'unwrapKey',
  ]);
}

function unwrapStorageKey(wrapped: ArrayBuffer, wrappingKey: CryptoKey): Promise<CryptoKey> {
  return crypto.subtle.unwrapKey('raw', wrapped, wrappingKey, 'AES-KW', { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/**
 * A fresh key for this sign-in: generated, wrapped with the secret, and kept as a non-extractable
 * copy unwrapped from that (the extractable original is never stored).
 */
export async function createStorageKey(
  database: OfflineDatabase,
  owner: string,
  wrappingKey: CryptoKey,
  now: number,
  maxAgeMs: number,
): Promise<StorageKeyRecord> {
  const generated = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ]);
  const wrapped = await crypto.subtle.wrapKey('raw', generated, wrappingKey, 'AES-KW');
  const record: StorageKeyRecord = {
    keyId: crypto.randomUUID(),
    owner,
    key: await unwrapStorageKey(wrapped, wrappingKey),
    wrapped,
    createdAt: now,
    expiresAt: now + maxAgeMs,
  };
  await database.put('keys', record);
  return record;
}

/**
 * The user's keys kept only wrapped (changes they kept at sign-out) become usable again, so the
 * service worker can open and send those changes. A key wrapped with another secret stays closed.
 */
export async function reopenKeptKeys(
  database: OfflineDatabase,
  owner: string,
  wrappingKey: CryptoKey,
  now: number,
  maxAgeMs: number,
): Promise<number> {
  const kept = (await database.getAllFromIndex('keys', 'owner', owner)).filter(
    (record) => record.key === null,
  );
  let reopened = 0;
  for (const record of kept) {
    try {
      const key = await unwrapStorageKey(record.wrapped, wrappingKey);
      await database.put('keys', { ...record, key, expiresAt: Math.max(record.expiresAt, now + maxAgeMs) });
      reopened += 1;
    } catch {
      // Not this user's secret (or a rotated one): the entries it seals stay unreadable until expiry.
    }
  }
  return reopened;
}

/**
 * Makes the owner's keys unusable. `keepWrapped`: keys that still seal queued changes keep their
 * wrapped copy (only the same user's next sign-in can unwrap it); all others are deleted outright.
 * One transaction, so the outbox cannot gain an entry under a key while it is being destroyed.
 */
export async function destroyOwnerKeys(
  database: OfflineDatabase,
  owner: string,
  { keepWrapped }: { keepWrapped: boolean },
): Promise<void> {
  const transaction = database.transaction(['keys', 'outbox'], 'readwrite');
  const keys = transaction.objectStore('keys');
  const sealing = keepWrapped
    ? new Set(
        (await transaction.objectStore('outbox').index('owner').getAll(owner)).map((entry) => entry.keyId),
      )
    : new Set<string>();
  for (const record of await keys.index('owner').getAll(owner)) {
    if (sealing.has(record.keyId)) await keys.put({ ...record, key: null });
    else await keys.delete(record.keyId);
  }
  await transaction.done;
}

/** The owner's persisted query cache and, unless kept, their queued changes. Run after the keys. */
export async function destroyOwnerData(
  database: OfflineDatabase,
  owner: string,
  { outbox }: { outbox: boolean },
): Promise<void> {
  const stores = outbox ? (['query-cache', 'outbox'] as const) : (['query-cache'] as const);
  const transaction = database.transaction(stores, 'readwrite');
  await transaction.objectStore('query-cache').delete(owner);
  if (outbox) {
    const queued = transaction.objectStore('outbox');
    for (const id of await queued.index('owner').getAllKeys(owner)) await queued.delete(id);
  }
  await transaction.done;
}

/** Sign-out or lost session: the key first, the data after. */
export async function endOwnerSession(
  database: OfflineDatabase,
  owner: string,
  keepOutbox: boolean,
): Promise<void> {
  await destroyOwnerKeys(database, owner, { keepWrapped: keepOutbox });
  await destroyOwnerData(database, owner, { outbox: !keepOutbox });
}

/**
 * Another user's session starts: every other owner's live keys are destroyed, then their cached
 * data. Their queued changes stay, unreadable, held for their own next sign-in.
 */
export async function destroyOtherOwners(database: OfflineDatabase, owner: string): Promise<void> {
  const others = new Set<string>();
  for (const record of await database.getAll('keys')) if (record.owner !== owner) others.add(record.owner);
  for (const cached of await database.getAllKeys('query-cache')) if (cached !== owner) others.add(cached);
  for (const other of others) {
    await destroyOwnerKeys(database, other, { keepWrapped: true });
    await destroyOwnerData(database, other, { outbox: false });
  }
}

/**
 * Keys past their `expiresAt` are deleted, then every record no remaining key can open: the
 * expired keys' data, and anything left behind by an interrupted destruction.
 */
export async function sweepExpired(database: OfflineDatabase, now: number): Promise<void> {
  const keys = database.transaction('keys', 'readwrite');
  for (const record of await keys.store.getAll()) {
    if (record.expiresAt <= now) await keys.store.delete(record.keyId);
  }
  await keys.done;

  const data = database.transaction(['keys', 'query-cache', 'outbox'], 'readwrite');
  const remaining = new Set(await data.objectStore('keys').getAllKeys());
  const cache = data.objectStore('query-cache');
  for (const record of await cache.getAll()) {
    if (!remaining.has(record.keyId)) await cache.delete(record.owner);
  }
  const outbox = data.objectStore('outbox');
  for (const record of await outbox.getAll()) {
    if (!remaining.has(record.keyId)) await outbox.delete(record.id);
  }
  await data.done;
}

/** The earliest `expiresAt` among the keys still usable, to plan the next sweep. */
export async function nextExpiry(database: OfflineDatabase): Promise<number | null> {
  const times = (await database.getAll('keys')).map((record) => record.expiresAt);
  return times.length === 0 ? null : Math.min(...times);
}

/**
 * Deletes the owner's keys that nothing refers to any more (neither the cached queries nor a queued
 * change), except `keep`, so reloads do not pile up keys.
 */
export async function pruneUnusedKeys(database: OfflineDatabase, owner: string, keep: string): Promise<void> {
  const transaction = database.transaction(['keys', 'query-cache', 'outbox'], 'readwrite');
  const used = new Set<string>([keep]);
  const cached = await transaction.objectStore('query-cache').get(owner);
  if (cached) used.add(cached.keyId);
  for (const entry of await transaction.objectStore('outbox').index('owner').getAll(owner))
    used.add(entry.keyId);
  const keys = transaction.objectStore('keys');
  for (const record of await keys.index('owner').getAll(owner)) {
    if (!used.has(record.keyId) && record.key !== null) await keys.delete(record.keyId);
  }
  await transaction.done;
}

export async function recordLastSession(
  database: OfflineDatabase,
  owner: string,
  now: number,
): Promise<void> {
  await database.put('meta', { name: 'last-session', owner, signedInAt: now });
}

export async function lastSessionOwner(database: OfflineDatabase): Promise<string | null> {
  return (await database.get('meta', 'last-session'))?.owner ?? null;
}
