import * as v from 'valibot';
import {
  liveStorageKey,
  type OfflineDatabase,
  type OutboxRecord,
  openSealedJson,
  type SealedValue,
  type StorageKeyRecord,
  sealJson,
} from '../../contract/offline-storage.ts';
import { type OutboxContent, outboxContentSchema } from './content.ts';

/** WebCrypto's key type, named so that the benchmark's Node configuration compiles this file too. */
type CryptoKey = Parameters<typeof crypto.subtle.encrypt>[1];

/** A storage key that is not locked: the only kind a new entry can be sealed with. */
export type UnlockedKey = StorageKeyRecord & { key: CryptoKey };

/** A record as the store can read it. */
export type Opened =
  | { readable: true; key: CryptoKey; content: OutboxContent }
  /** The key exists but is locked until its user signs in again: the entry waits, in its place. */
  | { readable: false; locked: true }
  /** No key will ever open it again (destroyed, expired) or the record is damaged. */
  | { readable: false; locked: false };

/** The states in which an entry still has to be sent; a new change of its user goes behind them. */
const WAITING: ReadonlySet<OutboxRecord['state']> = new Set(['pending', 'sending', 'held']);

function bySequence(a: OutboxRecord, b: OutboxRecord): number {
  return a.sequence - b.sequence;
}

function isQuotaError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'QuotaExceededError'
  );
}

/**
 * The outbox's records in IndexedDB (`outbox` store of the offline database), and how they sit there:
 * numbered in one sequence across users, the request sealed with its user's storage key, opened only
 * with that key and checked against the content's schema. Each change runs in a transaction of its
 * own, and no crypto await ever sits inside a transaction (IndexedDB would commit it meanwhile).
 */
export class OutboxStore {
  /**
   * `database` is asked for on every operation so that a connection closed by an upgrade is
   * replaced; `now` (epoch milliseconds) decides which keys have expired.
   */
  constructor(
    private readonly database: () => Promise<OfflineDatabase>,
    private readonly now: () => number,
  ) {}

  /** Every record, oldest first. */
  async all(): Promise<OutboxRecord[]> {
    return (await (await this.database()).getAll('outbox')).sort(bySequence);
  }

  /** The records of one user, oldest first. */
  async ofOwner(owner: string): Promise<OutboxRecord[]> {
    return (await (await this.database()).getAllFromIndex('outbox', 'owner', owner)).sort(bySequence);
  }

  async get(id: string): Promise<OutboxRecord | undefined> {
    return (await this.database()).get('outbox', id);
  }

  /** Whether the user has entries not yet sent, which a new change must wait behind. */
  async hasWaiting(owner: string): Promise<boolean> {
    return (await this.ofOwner(owner)).some((record) => WAITING.has(record.state));
  }

  /** The key a new change of `owner` is sealed with: the newest one neither locked nor expired. */
  async liveKey(owner: string): Promise<StorageKeyRecord | undefined> {
    return liveStorageKey(await this.database(), owner, this.now());
  }

  /** Seals a content for a record; the caller stores it with `update`. */
  seal(key: CryptoKey, content: OutboxContent): Promise<SealedValue> {
    return sealJson(key, content);
  }

  /**
   * A new `pending` record, sealed first, then numbered after the last one and written in one
   * transaction. `no-room` when the browser refused the write for lack of space; nothing is kept then.
   */
  async add(entry: {
    id: string;
    owner: string;
    key: UnlockedKey;
    content: OutboxContent;
  }): Promise<'added' | 'no-room'> {
    const sealed = await this.seal(entry.key.key, entry.content);
    try {
      const transaction = (await this.database()).transaction('outbox', 'readwrite');
      const write = (async () => {
        const last = await transaction.store.index('sequence').openCursor(null, 'prev');
        await transaction.store.add({
          id: entry.id,
          sequence: (last?.value.sequence ?? 0) + 1,
          owner: entry.owner,
          keyId: entry.key.keyId,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: null,
          createdAt: this.now(),
          sealed,
        });
      })();
      await Promise.all([write, transaction.done]);
      return 'added';
    } catch (error) {
      if (isQuotaError(error)) return 'no-room';
      throw error;
    }
  }

  /** Opens a record's sealed request with its own key, if that key still exists and is unlocked. */
  async open(record: OutboxRecord): Promise<Opened> {
    return this.openWith(await (await this.database()).get('keys', record.keyId), record.sealed);
  }

  /**
   * The user's records that open, oldest first, each with its content; the others (damaged, or
   * their key destroyed, expired or locked) are left out.
   */
  async readableOf(owner: string): Promise<Array<{ record: OutboxRecord; content: OutboxContent }>> {
    const database = await this.database();
    const keys = new Map<string, StorageKeyRecord | undefined>();
    const readable: Array<{ record: OutboxRecord; content: OutboxContent }> = [];
    for (const record of await this.ofOwner(owner)) {
      if (!keys.has(record.keyId)) keys.set(record.keyId, await database.get('keys', record.keyId));
      const opened = await this.openWith(keys.get(record.keyId), record.sealed);
      if (opened.readable) readable.push({ record, content: opened.content });
    }
    return readable;
  }

  private async openWith(keyRecord: StorageKeyRecord | undefined, sealed: SealedValue): Promise<Opened> {
    if (keyRecord === undefined || keyRecord.expiresAt <= this.now())
      return { readable: false, locked: false };
    if (keyRecord.key === null) return { readable: false, locked: true };
    const parsed = v.safeParse(outboxContentSchema, await openSealedJson(keyRecord.key, sealed));
    if (!parsed.success) return { readable: false, locked: false };
    return { readable: true, key: keyRecord.key, content: parsed.output };
  }

  /**
   * Changes one record in a transaction of its own; `change` answers the new record, or null to
   * leave it (for example when a command changed its state meanwhile). Answers what was written.
   */
  async update(
    id: string,
    change: (record: OutboxRecord) => OutboxRecord | null,
  ): Promise<OutboxRecord | null> {
    const transaction = (await this.database()).transaction('outbox', 'readwrite');
    const work = (async () => {
      const record = await transaction.store.get(id);
      const next = record === undefined ? null : change(record);
      if (next !== null) await transaction.store.put(next);
      return next;
    })();
    const [written] = await Promise.all([work, transaction.done]);
    return written;
  }

  /** Changes every record `select` picks, in one transaction; answers the owners touched. */
  async rewrite(
    select: (record: OutboxRecord) => boolean,
    change: (record: OutboxRecord) => OutboxRecord,
  ): Promise<Set<string>> {
    const transaction = (await this.database()).transaction('outbox', 'readwrite');
    const owners = new Set<string>();
    const work = (async () => {
      for (const record of await transaction.store.getAll()) {
        if (!select(record)) continue;
        owners.add(record.owner);
        await transaction.store.put(change(record));
      }
    })();
    await Promise.all([work, transaction.done]);
    return owners;
  }

  /** Deletes one record; answers it as it was, or undefined when it was already gone. */
  async remove(id: string): Promise<OutboxRecord | undefined> {
    const transaction = (await this.database()).transaction('outbox', 'readwrite');
    const work = (async () => {
      const record = await transaction.store.get(id);
      if (record !== undefined) await transaction.store.delete(id);
      return record;
    })();
    const [removed] = await Promise.all([work, transaction.done]);
    return removed;
  }

  /** Deletes every record of one user, in one transaction. */
  async removeAllOf(owner: string): Promise<void> {
    const transaction = (await this.database()).transaction('outbox', 'readwrite');
    const work = (async () => {
      for (const id of await transaction.store.index('owner').getAllKeys(owner)) {
        await transaction.store.delete(id);
      }
    })();
    await Promise.all([work, transaction.done]);
  }
}
