// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSealedJson, sealJson } from '../../../../contract/offline-storage.ts';
import {
  createSealedPersister,
  restorePersistedQueries,
  savePersistedQueries,
  subscribePersistedQueries,
} from '../../../../src/lib/offline/persister.ts';
import { createStorageKey, importStorageSecret } from '../../../../src/lib/offline/vault.ts';
import {
  freshIndexedDb,
  openDatabase,
  plainQueryClient,
  randomSecret,
  storedText,
} from './offline-support.ts';

const OWNER = 'owner-a';
const HOUR = 60 * 60 * 1000;
const MAX_AGE = 72 * HOUR;
const SECRET_MARKER = 'client-secret-7f3e9a-never-stored';

beforeEach(freshIndexedDb);
afterEach(() => vi.useRealTimers());

async function setUp() {
  const database = await openDatabase();
  const wrappingKey = await importStorageSecret(randomSecret());
  const key = await createStorageKey(database, OWNER, wrappingKey, Date.now(), MAX_AGE);
  const persister = createSealedPersister({ database, owner: OWNER, sealingKey: () => key });
  return { database, key, persister, wrappingKey };
}

function clientWithData() {
  const queryClient = plainQueryClient();
  queryClient.setQueryData(['organizations', 'detail', 'o1'], { id: 'o1', name: 'Acme Trust GmbH' });
  // A query carrying a secret, marked so it never reaches storage.
  queryClient
    .getQueryCache()
    .build(queryClient, { queryKey: ['oauth', 'secret'], meta: { persist: false } })
    .setData({ secret: SECRET_MARKER });
  return queryClient;
}

describe('sealed query-cache persister', () => {
  it('stores the cache sealed and restores it into a fresh client', async () => {
    const { database, key, persister } = await setUp();
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'build-1' });

    const record = await database.get('query-cache', OWNER);
    expect(record?.keyId).toBe(key.keyId);
    // Sealed: the organization's name is nowhere in the stored bytes.
    expect(await storedText(database, 'query-cache')).not.toContain('Acme');

    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({
        queryClient: restored,
        persister,
        maxAgeMs: MAX_AGE,
        buster: 'build-1',
      }),
    ).toBe(true);
    expect(restored.getQueryData(['organizations', 'detail', 'o1'])).toEqual({
      id: 'o1',
      name: 'Acme Trust GmbH',
    });
  });

  it('never stores a query marked persist: false, even sealed', async () => {
    const { database, key, persister } = await setUp();
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'build-1' });
    const record = await database.get('query-cache', OWNER);
    if (!record || !key.key) throw new Error('nothing stored');
    const plain = JSON.stringify(await openSealedJson(key.key, record.sealed));
    expect(plain).toContain('Acme Trust GmbH');
    expect(plain).not.toContain(SECRET_MARKER);
    expect(await storedText(database, 'query-cache')).not.toContain(SECRET_MARKER);

    const restored = plainQueryClient();
    await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: MAX_AGE, buster: 'build-1' });
    expect(restored.getQueryData(['oauth', 'secret'])).toBeUndefined();
  });

  it('leaves out failed and pending queries', async () => {
    const { database, key, persister } = await setUp();
    const queryClient = plainQueryClient();
    await queryClient
      .fetchQuery({ queryKey: ['failing'], queryFn: () => Promise.reject(new Error('down')) })
      .catch(() => undefined);
    queryClient.getQueryCache().build(queryClient, { queryKey: ['pending'] });
    queryClient.setQueryData(['loaded'], 'yes');
    await savePersistedQueries({ queryClient, persister, buster: 'b' });
    const record = await database.get('query-cache', OWNER);
    if (!record || !key.key) throw new Error('nothing stored');
    const state = (await openSealedJson(key.key, record.sealed)) as {
      clientState: { queries: { queryKey: unknown }[] };
    };
    expect(state.clientState.queries.map((query) => query.queryKey)).toEqual([['loaded']]);
  });

  it('discards a cache of another build', async () => {
    const { database, persister } = await setUp();
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'build-1' });
    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({
        queryClient: restored,
        persister,
        maxAgeMs: MAX_AGE,
        buster: 'build-2',
      }),
    ).toBe(false);
    expect(restored.getQueryCache().getAll()).toHaveLength(0);
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('discards a cache older than its maximum age', async () => {
    const { database, persister } = await setUp();
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'b' });
    const later = Date.now() + 5 * HOUR;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: 4 * HOUR, buster: 'b' }),
    ).toBe(false);
    expect(restored.getQueryCache().getAll()).toHaveLength(0);
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('discards a record sealed with another key without failing', async () => {
    const { database, persister, wrappingKey } = await setUp();
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'b' });
    // The record now names a key that did not seal it.
    const other = await createStorageKey(database, OWNER, wrappingKey, Date.now(), MAX_AGE);
    const record = await database.get('query-cache', OWNER);
    if (!record) throw new Error('nothing stored');
    await database.put('query-cache', { ...record, keyId: other.keyId });

    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: MAX_AGE, buster: 'b' }),
    ).toBe(false);
    expect(restored.getQueryCache().getAll()).toHaveLength(0);
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('discards a corrupt record and one that opens to something else than a cache', async () => {
    const { database, key, persister } = await setUp();
    if (!key.key) throw new Error('no key');
    await database.put('query-cache', {
      owner: OWNER,
      keyId: key.keyId,
      savedAt: Date.now(),
      sealed: { iv: new Uint8Array(12), data: crypto.getRandomValues(new Uint8Array(64)).buffer },
    });
    const restored = plainQueryClient();
    expect(
      await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: MAX_AGE, buster: 'b' }),
    ).toBe(false);
    expect(await database.get('query-cache', OWNER)).toBeUndefined();

    await database.put('query-cache', {
      owner: OWNER,
      keyId: key.keyId,
      savedAt: Date.now(),
      sealed: await sealJson(key.key, { not: 'a cache' }),
    });
    expect(
      await restorePersistedQueries({ queryClient: restored, persister, maxAgeMs: MAX_AGE, buster: 'b' }),
    ).toBe(false);
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('writes nothing once its key is gone', async () => {
    const { database } = await setUp();
    const persister = createSealedPersister({ database, owner: OWNER, sealingKey: () => null });
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'b' });
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('writes nothing once another tab destroyed the key it holds', async () => {
    const { database, key, persister } = await setUp();
    await database.put('keys', { ...key, key: null });
    await savePersistedQueries({ queryClient: clientWithData(), persister, buster: 'b' });
    expect(await database.get('query-cache', OWNER)).toBeUndefined();
  });

  it('writes a burst of changes once', async () => {
    const { persister } = await setUp();
    const write = vi.spyOn(persister, 'persistClient');
    const queryClient = plainQueryClient();
    const subscription = subscribePersistedQueries({ queryClient, persister, buster: 'b' }, 50);
    for (let index = 0; index < 20; index += 1) queryClient.setQueryData(['item', index], index);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(write).toHaveBeenCalledTimes(1);
    queryClient.setQueryData(['item', 'late'], 'late');
    subscription.stop();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('stores an invalidation at once, so a reload does not restore stale data as fresh', async () => {
    const { persister } = await setUp();
    const queryClient = clientWithData();
    const subscription = subscribePersistedQueries({ queryClient, persister, buster: 'b' }, 60_000);
    const write = vi.spyOn(persister, 'persistClient');
    await queryClient.invalidateQueries({ queryKey: ['organizations'] });
    await queryClient.invalidateQueries({ queryKey: ['oauth'] });
    await vi.waitFor(() => expect(write).toHaveBeenCalledTimes(1), { timeout: 500 });
    const stored = (await persister.restoreClient())?.clientState.queries.find(
      (query) => query.queryHash === '["organizations","detail","o1"]',
    );
    expect(stored?.state.isInvalidated).toBe(true);
    subscription.stop();
  });
});
