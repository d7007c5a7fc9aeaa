import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DiscardReason,
  NewerOfflineDatabaseError,
  OFFLINE_DATABASE_NAME,
  OFFLINE_DATABASE_VERSION,
  openOfflineDatabase,
} from '../../contract/offline-storage.ts';
import { freshIndexedDb } from './support.ts';

/**
 * The layout version can only be raised by a future build. To open today's database "as the next
 * build would", every open made by `contract/offline-storage.ts` is shifted by `versionShift`.
 */
const shift = vi.hoisted(() => ({ versionShift: 0 }));
vi.mock('idb', async (importOriginal) => {
  const actual = await importOriginal<typeof import('idb')>();
  return {
    ...actual,
    openDB: (name: string, version?: number, callbacks?: Parameters<typeof actual.openDB>[2]) =>
      actual.openDB(name, version === undefined ? undefined : version + shift.versionShift, callbacks),
  };
});

beforeEach(() => {
  freshIndexedDb();
  shift.versionShift = 0;
});

describe('the shared offline database', () => {
  it('is made with its four stores, and nothing is reported discarded', async () => {
    const reasons: DiscardReason[] = [];
    const database = await openOfflineDatabase((reason) => reasons.push(reason));
    expect([...database.objectStoreNames].sort()).toEqual(['keys', 'meta', 'outbox', 'query-cache']);
    expect(reasons).toEqual([]);
    database.close();
  });

  it('discards a database of an older layout, records and stores alike, and says so', async () => {
    // Today's layout with an entry in it, then an "older" store a previous build left behind.
    const today = await openOfflineDatabase();
    await today.put('meta', { name: 'last-session', owner: 'someone', signedInAt: 1 });
    today.close();
    const older = await openDB(OFFLINE_DATABASE_NAME, OFFLINE_DATABASE_VERSION + 1, {
      upgrade: (database) => database.createObjectStore('left-over'),
    });
    older.close();

    shift.versionShift = 2;
    const reasons: DiscardReason[] = [];
    const database = await openOfflineDatabase((reason) => reasons.push(reason));
    expect(reasons).toEqual(['older-version']);
    expect([...database.objectStoreNames].sort()).toEqual(['keys', 'meta', 'outbox', 'query-cache']);
    expect(await database.getAll('meta')).toEqual([]);
    database.close();
  });

  it('leaves a database of a newer layout alone, its records included, and refuses to open it', async () => {
    shift.versionShift = 1;
    const newer = await openOfflineDatabase();
    await newer.put('meta', { name: 'last-session', owner: 'someone', signedInAt: 1 });
    newer.close();

    shift.versionShift = 0;
    const reasons: DiscardReason[] = [];
    await expect(openOfflineDatabase((reason) => reasons.push(reason))).rejects.toBeInstanceOf(
      NewerOfflineDatabaseError,
    );
    expect(reasons).toEqual([]);
    shift.versionShift = 1;
    const stillNewer = await openOfflineDatabase();
    expect(await stillNewer.getAll('meta')).toEqual([
      { name: 'last-session', owner: 'someone', signedInAt: 1 },
    ]);
    stillNewer.close();
    shift.versionShift = 0;
    await deleteDB(OFFLINE_DATABASE_NAME);
  });
});
