// @vitest-environment jsdom
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  liveStorageKey,
  OFFLINE_DATABASE_NAME,
  OFFLINE_DATABASE_VERSION,
  type OfflineDatabase,
  type OutboxRecord,
  openSealedJson,
  type StorageKeyRecord,
  sealJson,
} from '../../../../contract/offline-storage.ts';
import { DatabaseHandle } from '../../../../src/lib/offline/database.ts';
import {
  createSealedPersister,
  restorePersistedQueries,
  savePersistedQueries,
} from '../../../../src/lib/offline/persister.ts';
import {
  createStorageKey,
  destroyOtherOwners,
  destroyOwnerKeys,
  endOwnerSession,
  importStorageSecret,
  reopenKeptKeys,
  sweepExpired,
} from '../../../../src/lib/offline/vault.ts';
import { freshIndexedDb, openDatabase, plainQueryClient, randomSecret } from './offline-support.ts';

const HOUR = 60 * 60 * 1000;
const MAX_AGE = 72 * HOUR;
const ALICE = 'owner-alice';
const BOB = 'owner-bob';

beforeEach(freshIndexedDb);

/** A signed-in user: a key of this sign-in, a saved cache and one queued change, as the worker stores it. */
async function signIn(database: OfflineDatabase, owner: string, secret = randomSecret()) {
  const wrappingKey = await importStorageSecret(secret);
  const key = await createStorageKey(database, owner, wrappingKey, Date.now(), MAX_AGE);
  const persister = createSealedPersister({ database, owner, sealingKey: () => key });
  const queryClient = plainQueryClient();
  queryClient.setQueryData(['profile'], { owner, name: `${owner}'s profile` });
  await savePersistedQueries({ queryClient, persister, buster: 'b' });
  if (!key.key) throw new Error('no key');
  const queued: OutboxRecord = {
    id: `entry-${owner}`,
    sequence: owner === ALICE ? 1 : 2,
    owner,
    keyId: key.keyId,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: null,
    createdAt: Date.now(),
    sealed: await sealJson(key.key, { method: 'PUT', url: '/organizations/o1', body: { name: 'Acme' } }),
  };
  await database.put('outbox', queued);
  return { secret, wrappingKey, key, persister, queued };
}

/** Every key this browser could still use, tried on a sealed value. */
async function anyLiveKeyOpens(database: OfflineDatabase, sealed: OutboxRecord['sealed']): Promise<boolean> {
  for (const record of await database.getAll('keys')) {
    if (record.key && (await openSealedJson(record.key, sealed)) !== undefined) return true;
  }
  return false;
}

describe('storage key vault', () => {
  it('keeps a usable copy that cannot be exported, and the key wrapped', async () => {
    const database = await openDatabase();
    const { key } = await signIn(database, ALICE);
    const stored = await database.get('keys', key.keyId);
    expect(stored?.key?.extractable).toBe(false);
    expect(stored?.wrapped.byteLength).toBe(40);
    expect(stored?.expiresAt).toBe(key.createdAt + MAX_AGE);
  });

  it('destroys the key before the data on sign-out: interrupted in between, the cache left does not open', async () => {
    const database = await openDatabase();
    const { key, persister } = await signIn(database, ALICE);
    // The data's transaction never runs: the tab closed right after the key's.
    await destroyOwnerKeys(database, ALICE, { keepWrapped: false });

    const left = await database.get('query-cache', ALICE);
    expect(left).toBeDefined();
    expect(await database.get('keys', key.keyId)).toBeUndefined();
    expect(await liveStorageKey(database, ALICE, Date.now())).toBeUndefined();
    if (!left) throw new Error('nothing left');
    expect(await anyLiveKeyOpens(database, left.sealed)).toBe(false);
    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: MAX_AGE, buster: 'b' }),
    ).toBe(false);
    expect(restored.getQueryData(['profile'])).toBeUndefined();

    // The next start sweeps what no key can open.
    await sweepExpired(database, Date.now());
    expect(await database.get('query-cache', ALICE)).toBeUndefined();
  });

  it('signs out completely: no key, no cache, and discarded changes gone', async () => {
    const database = await openDatabase();
    await signIn(database, ALICE);
    await endOwnerSession(database, ALICE, false);
    expect(await database.getAll('keys')).toEqual([]);
    expect(await database.getAll('query-cache')).toEqual([]);
    expect(await database.getAll('outbox')).toEqual([]);
  });

  it('keeps changes held at sign-out, readable again only with the same user’s secret', async () => {
    const database = await openDatabase();
    const alice = await signIn(database, ALICE);
    await endOwnerSession(database, ALICE, true);

    const kept = await database.get('keys', alice.key.keyId);
    expect(kept?.key).toBeNull();
    expect(await database.get('query-cache', ALICE)).toBeUndefined();
    const held = await database.get('outbox', alice.queued.id);
    if (!held) throw new Error('the change was not kept');
    expect(await anyLiveKeyOpens(database, held.sealed)).toBe(false);

    // Another user's secret does not unwrap it.
    expect(
      await reopenKeptKeys(database, ALICE, await importStorageSecret(randomSecret()), Date.now(), MAX_AGE),
    ).toBe(0);
    expect(await anyLiveKeyOpens(database, held.sealed)).toBe(false);

    // Alice's own next sign-in does, and the worker can open her change again.
    expect(await reopenKeptKeys(database, ALICE, alice.wrappingKey, Date.now(), MAX_AGE)).toBe(1);
    const reopened = (await database.get('keys', alice.key.keyId)) as StorageKeyRecord;
    expect(reopened.key?.extractable).toBe(false);
    expect(reopened.key && (await openSealedJson(reopened.key, held.sealed))).toEqual({
      method: 'PUT',
      url: '/organizations/o1',
      body: { name: 'Acme' },
    });
  });

  it('leaves nothing of the first user readable when another user signs in', async () => {
    const database = await openDatabase();
    const alice = await signIn(database, ALICE);
    await destroyOtherOwners(database, BOB);
    const bob = await signIn(database, BOB);

    expect(await database.get('query-cache', ALICE)).toBeUndefined();
    for (const record of await database.getAllFromIndex('keys', 'owner', ALICE))
      expect(record.key).toBeNull();
    const held = await database.get('outbox', alice.queued.id);
    if (!held) throw new Error("Alice's change was not held for her");
    expect(await anyLiveKeyOpens(database, held.sealed)).toBe(false);
    // Bob's own data opens with his key only.
    const bobsChange = await database.get('outbox', bob.queued.id);
    expect(bobsChange && (await anyLiveKeyOpens(database, bobsChange.sealed))).toBe(true);
    // Alice's change is hers again at her next sign-in, not with Bob's secret.
    expect(await reopenKeptKeys(database, ALICE, bob.wrappingKey, Date.now(), MAX_AGE)).toBe(0);
    expect(await reopenKeptKeys(database, ALICE, alice.wrappingKey, Date.now(), MAX_AGE)).toBe(1);
    expect(await anyLiveKeyOpens(database, held.sealed)).toBe(true);
  });

  it('destroys an expired key, then its data', async () => {
    const database = await openDatabase();
    const alice = await signIn(database, ALICE);
    await sweepExpired(database, alice.key.expiresAt - 1);
    expect(await database.getAll('keys')).toHaveLength(1);
    await sweepExpired(database, alice.key.expiresAt);
    expect(await database.getAll('keys')).toEqual([]);
    expect(await database.getAll('query-cache')).toEqual([]);
    expect(await database.getAll('outbox')).toEqual([]);
  });

  it('leaves a database written by a newer build alone and works without offline data', async () => {
    const newer = await openDB(OFFLINE_DATABASE_NAME, OFFLINE_DATABASE_VERSION + 1, {
      upgrade: (database) => database.createObjectStore('something-else'),
    });
    newer.close();
    const reasons: string[] = [];
    expect(await new DatabaseHandle((reason) => reasons.push(reason)).open()).toBeNull();
    expect(reasons).toEqual([]);
    const untouched = await openDB(OFFLINE_DATABASE_NAME);
    expect(untouched.version).toBe(OFFLINE_DATABASE_VERSION + 1);
    expect([...untouched.objectStoreNames]).toEqual(['something-else']);
    untouched.close();
  });
});
