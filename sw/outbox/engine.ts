import * as v from 'valibot';
import {
  liveStorageKey,
  type OfflineDatabase,
  type OutboxRecord,
  openSealedJson,
  ownerTag,
  type SealedValue,
  type StorageKeyRecord,
  sealJson,
} from '../../contract/offline-storage.ts';
import {
  newIdempotencyKey,
  OUTBOX_HEADERS,
  OUTBOX_QUOTA_STATUS,
  type OutboxCommand,
  type OutboxEntryView,
  type OutboxEvent,
  type OutboxMethod,
  type QueuedResponse,
} from '../../contract/outbox.ts';
import { isApiPath } from '../../contract/paths.ts';
import { BACKOFF_CAP_MS, backoffDelay, retryAfterDelay } from './backoff.ts';
import {
  decodeSummary,
  forwardedHeaders,
  type OutboxContent,
  outboxContentSchema,
  parsedBody,
  QUEUEABLE_METHODS,
  storedHeaders,
} from './content.ts';
import { bearerToken, jwtSubject } from './jwt.ts';

/**
 * The outbox: the one queue of changes made without a connection (docs/decisions/013-offline-console.md).
 * Everything it needs from its surroundings comes in through `OutboxEnvironment`, so the service
 * worker, the unit tests and the fault-injection benchmark run this same code.
 */
export interface OutboxEnvironment {
  /** The shared database, asked for on every operation so a connection closed by an upgrade is replaced. */
  database: () => Promise<OfflineDatabase>;
  /** Origin of the console and its API: entries keep their path and are sent here. */
  origin: string;
  fetch: (request: Request) => Promise<Response>;
  /** Epoch milliseconds. */
  now: () => number;
  /** In [0, 1), for the back-off jitter. */
  random: () => number;
  broadcast: (event: OutboxEvent) => void;
  /** Ids of entries and new idempotency keys; `crypto.randomUUID` unless given. */
  newId?: () => string;
  /** Asks the browser for a Background Sync event once it is online again. */
  requestSync?: () => Promise<void>;
  /** Runs `callback` after `delayMs`; returns a cancel function. `setTimeout` unless given. */
  setTimer?: (callback: () => void, delayMs: number) => () => void;
}

/** WebCrypto's key type, named so that the benchmark's Node configuration compiles this file too. */
type CryptoKey = Parameters<typeof crypto.subtle.encrypt>[1];

interface Session {
  userId: string;
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

type Opened =
  | { readable: true; key: CryptoKey; content: OutboxContent }
  /** The key exists but is locked until its user signs in again: the entry waits, in its place. */
  | { readable: false; locked: true }
  /** No key will ever open it again (destroyed, expired) or the record is damaged. */
  | { readable: false; locked: false };

type Step = 'next' | 'stop';

export const QUOTA_MESSAGE =
  'The browser has no room left to keep this change offline, so it was not saved. Free some storage or reconnect, then make the change again.';
export const SIGN_IN_AGAIN_MESSAGE = 'Sign in again to keep changes offline.';
export const OTHER_USER_MESSAGE = 'This change was made for another user than the one signed in.';
export const NO_OWNER_MESSAGE = 'The change does not name the user it is made for.';
export const GONE_MESSAGE = 'The object this change was made to no longer exists.';
const WORKER_FAILURE_MESSAGE = 'The change could not be sent or kept offline.';

const WAITING: ReadonlySet<OutboxRecord['state']> = new Set(['pending', 'sending', 'held']);

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

function errorResponse(status: number, message: string): Response {
  return jsonResponse(status, { error: { status, message } });
}

function isQuotaError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'QuotaExceededError'
  );
}

function bySequence(a: OutboxRecord, b: OutboxRecord): number {
  return a.sequence - b.sequence;
}

/** The request's method, path and body can be queued: same origin, API path, marked by the page. */
export function isQueueable(request: Request, origin: string): boolean {
  const url = new URL(request.url);
  return (
    url.origin === origin &&
    isApiPath(url.pathname) &&
    QUEUEABLE_METHODS.has(request.method) &&
    request.headers.has(OUTBOX_HEADERS.idempotencyKey) &&
    request.headers.has(OUTBOX_HEADERS.summary)
  );
}

/** The server's `error.message`, or a sentence naming the status when the body has none. */
async function serverMessage(response: Response): Promise<{ message: string; body: unknown }> {
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = null;
  }
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  const message =
    typeof error?.message === 'string' && error.message !== ''
      ? error.message
      : `The server refused this change (HTTP ${response.status}).`;
  return { message, body };
}

export class OutboxEngine {
  private readonly sessions = new Map<string, Session>();
  private readonly owners = new Map<string, string>();
  private started: Promise<void> | null = null;
  private replaying: Promise<void> | null = null;
  private replayAgain = false;
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;
  private cancelTimer: (() => void) | null = null;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly env: OutboxEnvironment) {}

  /**
   * Worker start: entries left `sending` by a worker that stopped mid-request go back to `pending`
   * (their Idempotency-Key makes sending them again safe), then a replay runs.
   */
  start(): Promise<void> {
    return this.ready().then(() => {
      void this.replay();
    });
  }

  /** Resolves once no replay and no broadcast is under way (tests, the benchmark, `waitUntil`). */
  async idle(): Promise<void> {
    while (this.replaying !== null || this.flushing !== null) {
      await this.replaying;
      await this.flushing;
    }
  }

  /** Stops the back-off timer (tests and the benchmark; a worker simply ends). */
  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  // ─── Interception ──────────────────────────────────────────────────────────────────────────────

  /** Answers a queueable request (see `isQueueable`): sent now, or kept and answered 202. */
  async intercept(request: Request): Promise<Response> {
    try {
      return await this.interceptChecked(request);
    } catch (error) {
      console.error('Outbox: a change could not be handled', error);
      return errorResponse(503, WORKER_FAILURE_MESSAGE);
    }
  }

  private async interceptChecked(request: Request): Promise<Response> {
    await this.ready();
    const userId = request.headers.get(OUTBOX_HEADERS.owner);
    if (!userId) return errorResponse(400, NO_OWNER_MESSAGE);
    const bearer = bearerToken(request.headers.get('Authorization'));
    if (bearer !== null && jwtSubject(bearer) !== userId) return errorResponse(403, OTHER_USER_MESSAGE);

    const owner = await this.ownerOf(userId);
    const database = await this.env.database();
    const key = await liveStorageKey(database, owner, this.env.now());
    if (key?.key == null) return errorResponse(401, SIGN_IN_AGAIN_MESSAGE);

    const url = new URL(request.url);
    const text = await request.text();
    const content: OutboxContent = {
      method: request.method as OutboxMethod,
      url: `${url.pathname}${url.search}`,
      headers: storedHeaders(request.headers),
      body: text === '' ? null : text,
      summary: decodeSummary(request.headers.get(OUTBOX_HEADERS.summary)),
      accountId: request.headers.get(OUTBOX_HEADERS.account) || null,
      resource: request.headers.get(OUTBOX_HEADERS.resource) || null,
      error: null,
      current: null,
    };

    // Behind entries already waiting, a change is only sent in its turn: order is kept per user.
    if (await this.hasWaiting(database, owner)) return this.enqueue(owner, key, content);

    try {
      return await this.env.fetch(
        new Request(url, {
          method: content.method,
          headers: forwardedHeaders(request.headers),
          body: content.body,
          credentials: 'same-origin',
        }),
      );
    } catch {
      return this.enqueue(owner, key, content);
    }
  }

  private async hasWaiting(database: OfflineDatabase, owner: string): Promise<boolean> {
    const records = await database.getAllFromIndex('outbox', 'owner', owner);
    return records.some((record) => WAITING.has(record.state));
  }

  /** Seals the change, then numbers and stores it in one transaction (no crypto inside it). */
  private async enqueue(owner: string, key: StorageKeyRecord, content: OutboxContent): Promise<Response> {
    if (key.key === null) return errorResponse(401, SIGN_IN_AGAIN_MESSAGE);
    const id = this.newId();
    const sealed = await sealJson(key.key, content);
    try {
      const database = await this.env.database();
      const transaction = database.transaction('outbox', 'readwrite');
      const write = (async () => {
        const last = await transaction.store.index('sequence').openCursor(null, 'prev');
        await transaction.store.add({
          id,
          sequence: (last?.value.sequence ?? 0) + 1,
          owner,
          keyId: key.keyId,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: null,
          createdAt: this.env.now(),
          sealed,
        });
      })();
      await Promise.all([write, transaction.done]);
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      this.env.broadcast({ type: 'quota-exceeded', owner, summary: content.summary });
      return errorResponse(OUTBOX_QUOTA_STATUS, QUOTA_MESSAGE);
    }
    void this.notify(owner);
    void this.env.requestSync?.().catch(() => undefined);
    void this.replay();
    const answer: QueuedResponse = { queued: true, outboxId: id };
    return jsonResponse(202, answer);
  }

  // ─── Replay ────────────────────────────────────────────────────────────────────────────────────

  /**
   * Sends what is due, oldest first, one entry at a time. Triggers overlap (sync event, page
   * command, timer, a new entry): while a replay runs, another request only asks it to go round once
   * more, so two replays never send at the same time.
   */
  replay(): Promise<void> {
    if (this.replaying !== null) {
      this.replayAgain = true;
      return this.replaying;
    }
    this.replaying = (async () => {
      try {
        await this.ready();
        do {
          this.replayAgain = false;
          await this.pass();
        } while (this.replayAgain);
      } catch (error) {
        console.error('Outbox: replay stopped', error);
      } finally {
        this.replaying = null;
      }
    })();
    return this.replaying;
  }

  private async pass(): Promise<void> {
    const database = await this.env.database();
    const records = (await database.getAll('outbox')).sort(bySequence);
    const byOwner = new Map<string, OutboxRecord[]>();
    for (const record of records) byOwner.set(record.owner, [...(byOwner.get(record.owner) ?? []), record]);

    let wakeAt = Number.POSITIVE_INFINITY;
    for (const [owner, entries] of byOwner) {
      for (const record of entries) {
        if (this.sessionOf(owner) === null) break;
        if (record.state === 'conflict' || record.state === 'failed') continue;
        if (record.state !== 'pending') break;
        if (record.nextAttemptAt !== null && record.nextAttemptAt > this.env.now()) {
          wakeAt = Math.min(wakeAt, record.nextAttemptAt);
          break;
        }
        if ((await this.send(database, record)) === 'stop') {
          const next = await database.get('outbox', record.id);
          if (next?.state === 'pending' && next.nextAttemptAt !== null) {
            wakeAt = Math.min(wakeAt, next.nextAttemptAt);
          }
          break;
        }
      }
    }
    this.wakeAt(wakeAt);
  }

  private sessionOf(owner: string): Session | null {
    const session = this.sessions.get(owner);
    return session !== undefined && session.expiresAt > this.env.now() ? session : null;
  }

  private async send(database: OfflineDatabase, record: OutboxRecord): Promise<Step> {
    const opened = await this.open(database, record);
    // A damaged entry or one whose key is gone can never be sent; it is passed over, not deleted
    // (the console removes data with its key). One whose key is locked keeps its place.
    if (!opened.readable) return opened.locked ? 'stop' : 'next';
    const session = this.sessionOf(record.owner);
    if (session === null) return 'stop';

    const marked = await this.update(record.id, (current) =>
      current.state === 'pending' ? { ...current, state: 'sending' } : null,
    );
    if (marked === null) return 'stop';
    void this.notify(record.owner);

    const { content, key } = opened;
    const headers = new Headers(content.headers);
    headers.set('Authorization', `Bearer ${session.token}`);
    let response: Response;
    try {
      response = await this.env.fetch(
        new Request(new URL(content.url, this.env.origin), {
          method: content.method,
          headers,
          body: content.body,
          credentials: 'same-origin',
        }),
      );
    } catch {
      await this.retryLater(marked, null);
      return 'stop';
    }
    return this.settle(marked, content, key, session, response);
  }

  /** What the server's answer makes of the entry. */
  private async settle(
    record: OutboxRecord,
    content: OutboxContent,
    key: CryptoKey,
    session: Session,
    response: Response,
  ): Promise<Step> {
    const { status } = response;
    if (status >= 200 && status < 300) {
      await response.body?.cancel();
      await this.remove(record.id);
      this.env.broadcast({ type: 'synced', owner: record.owner, id: record.id, url: content.url, status });
      void this.notify(record.owner);
      return 'next';
    }
    if (status === 401) {
      await response.body?.cancel();
      if (this.sessions.get(record.owner)?.token !== session.token && this.sessionOf(record.owner) !== null) {
        // A newer session arrived while this was on the wire: the entry goes out again with it.
        await this.update(record.id, (current) => ({ ...current, state: 'pending', nextAttemptAt: null }));
        return 'stop';
      }
      // The token is spent: the user's entries wait for the same user's next session.
      this.sessions.delete(record.owner);
      await this.rewrite(
        (stored) =>
          stored.owner === record.owner &&
          (stored.id === record.id || stored.state === 'pending' || stored.state === 'sending'),
        (stored) => ({ ...stored, state: 'held', nextAttemptAt: null }),
      );
      void this.notify(record.owner);
      return 'stop';
    }
    if (status >= 500 || (status === 409 && response.headers.has('Retry-After'))) {
      // 409 with Retry-After: the server is still working on the first request with this key.
      const retryAfter = retryAfterDelay(response.headers.get('Retry-After'), this.env.now());
      await response.body?.cancel();
      await this.retryLater(record, retryAfter);
      return 'stop';
    }

    const { message, body } = await serverMessage(response);
    let state: 'conflict' | 'failed' = 'failed';
    let current: OutboxContent['current'] = null;
    let error = { status, message };
    if (status === 412) {
      state = 'conflict';
      const value = (body as { current?: unknown } | null)?.current;
      const etag = response.headers.get('ETag');
      if (value !== undefined || etag !== null) current = { value: value ?? null, etag };
    } else if (status === 409) {
      state = 'conflict';
      current = await this.currentOf(content, session);
    } else if (status === 404) {
      error = { status, message: GONE_MESSAGE };
    }
    const sealed = await sealJson(key, { ...content, error, current } satisfies OutboxContent);
    await this.update(record.id, (stored) => ({ ...stored, state, nextAttemptAt: null, sealed }));
    void this.notify(record.owner);
    return 'next';
  }

  /** After a 409 without a current version in the answer: the object as its resource path reads now. */
  private async currentOf(content: OutboxContent, session: Session): Promise<OutboxContent['current']> {
    if (content.resource === null) return null;
    try {
      const response = await this.env.fetch(
        new Request(new URL(content.resource, this.env.origin), {
          headers: { Accept: 'application/json', Authorization: `Bearer ${session.token}` },
          credentials: 'same-origin',
        }),
      );
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      return { value: await response.json(), etag: response.headers.get('ETag') };
    } catch {
      return null;
    }
  }

  /** Network failure or 5xx: pending again after a back-off; held instead when its session ended meanwhile. */
  private async retryLater(record: OutboxRecord, atLeastMs: number | null): Promise<void> {
    const attempts = record.attempts + 1;
    const delay = Math.min(BACKOFF_CAP_MS, Math.max(backoffDelay(attempts, this.env.random), atLeastMs ?? 0));
    const held = this.sessionOf(record.owner) === null;
    await this.update(record.id, (current) => ({
      ...current,
      state: held ? 'held' : 'pending',
      attempts,
      nextAttemptAt: held ? null : this.env.now() + delay,
    }));
    void this.notify(record.owner);
  }

  private wakeAt(at: number): void {
    if (at === this.timerAt) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.timerAt = at;
    if (at === Number.POSITIVE_INFINITY) return;
    const delay = Math.max(0, at - this.env.now());
    const setTimer =
      this.env.setTimer ??
      ((callback: () => void, ms: number) => {
        const handle = setTimeout(callback, ms);
        return () => clearTimeout(handle);
      });
    this.cancelTimer = setTimer(() => {
      this.cancelTimer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      void this.replay();
    }, delay);
  }

  // ─── Commands ──────────────────────────────────────────────────────────────────────────────────

  async command(command: OutboxCommand): Promise<void> {
    await this.ready();
    switch (command.type) {
      case 'session':
        return this.openSession(command.userId, command.accessToken, command.expiresAt);
      case 'session-ended':
        return this.endSession(command.userId, command.keep);
      case 'list':
        return this.notify(await this.ownerOf(command.userId));
      case 'sync-now':
        return this.replay();
      case 'discard':
        return this.discard(command.id);
      case 'reapply':
        return this.reapply(command.id);
      case 'retry':
        return this.retry(command.id, command.body);
      case 'skip-waiting':
        // The worker itself activates; the engine has nothing to do.
        return;
    }
  }

  /**
   * The token of the user now signed in. Entries of anyone else stop replaying: their tokens are
   * forgotten and their waiting entries held until they sign in again.
   */
  private async openSession(userId: string, token: string, expiresAt: number): Promise<void> {
    if (jwtSubject(token) !== userId) {
      console.warn('Outbox: a session whose token names another user was refused');
      return;
    }
    const owner = await this.ownerOf(userId);
    for (const other of [...this.sessions.keys()]) if (other !== owner) this.sessions.delete(other);
    this.sessions.set(owner, { userId, token, expiresAt });
    const changed = await this.rewrite(
      (record) => (record.owner === owner ? record.state === 'held' : record.state === 'pending'),
      (record) =>
        record.owner === owner
          ? { ...record, state: 'pending', nextAttemptAt: null }
          : { ...record, state: 'held', nextAttemptAt: null },
    );
    await Promise.all([owner, ...changed].map((changedOwner) => this.notify(changedOwner)));
    void this.replay();
  }

  private async endSession(userId: string, keep: boolean): Promise<void> {
    const owner = await this.ownerOf(userId);
    this.sessions.delete(owner);
    if (keep) {
      await this.rewrite(
        (record) => record.owner === owner && (record.state === 'pending' || record.state === 'sending'),
        (record) => ({ ...record, state: 'held', nextAttemptAt: null }),
      );
    } else {
      const database = await this.env.database();
      const transaction = database.transaction('outbox', 'readwrite');
      const work = (async () => {
        for (const id of await transaction.store.index('owner').getAllKeys(owner)) {
          await transaction.store.delete(id);
        }
      })();
      await Promise.all([work, transaction.done]);
    }
    await this.notify(owner);
  }

  private async discard(id: string): Promise<void> {
    const removed = await this.remove(id);
    if (removed !== undefined) await this.notify(removed.owner);
  }

  /** Conflict → pending on the server's current version, under a new key: the old key's answer is the 412. */
  private async reapply(id: string): Promise<void> {
    await this.resend(id, 'conflict', (content) => {
      const headers = { ...content.headers };
      const etag = content.current?.etag;
      if (etag) headers[OUTBOX_HEADERS.ifMatch] = etag;
      return { ...content, headers };
    });
  }

  /** Failed → pending, with the body the user edited (it must be JSON), under a new key. */
  private async retry(id: string, body: unknown): Promise<void> {
    let text: string | undefined;
    if (body !== undefined) {
      try {
        text = JSON.stringify(body);
      } catch {
        text = undefined;
      }
      if (text === undefined) {
        console.warn('Outbox: an edited body that is not JSON was refused');
        return;
      }
    }
    await this.resend(id, 'failed', (content) =>
      text === undefined
        ? content
        : {
            ...content,
            body: text,
            headers: { 'Content-Type': 'application/json', ...content.headers },
          },
    );
  }

  private async resend(
    id: string,
    from: 'conflict' | 'failed',
    change: (content: OutboxContent) => OutboxContent,
  ): Promise<void> {
    const database = await this.env.database();
    const record = await database.get('outbox', id);
    if (record?.state !== from) return;
    const opened = await this.open(database, record);
    if (!opened.readable) return;
    const changed = change(opened.content);
    const content: OutboxContent = {
      ...changed,
      headers: { ...changed.headers, [OUTBOX_HEADERS.idempotencyKey]: newIdempotencyKey(this.newId()) },
      error: null,
      current: null,
    };
    const sealed = await sealJson(opened.key, content);
    const updated = await this.update(id, (current) =>
      current.state === from
        ? { ...current, state: 'pending', attempts: 0, nextAttemptAt: null, sealed }
        : null,
    );
    if (updated === null) return;
    await this.notify(record.owner);
    void this.replay();
  }

  // ─── Storage ───────────────────────────────────────────────────────────────────────────────────

  private ready(): Promise<void> {
    this.started ??= this.rewrite(
      (record) => record.state === 'sending',
      (record) => ({ ...record, state: 'pending' }),
    ).then(
      () => undefined,
      (error: unknown) => {
        this.started = null;
        throw error;
      },
    );
    return this.started;
  }

  private async ownerOf(userId: string): Promise<string> {
    let owner = this.owners.get(userId);
    if (owner === undefined) {
      owner = await ownerTag(userId);
      this.owners.set(userId, owner);
    }
    return owner;
  }

  private newId(): string {
    return this.env.newId?.() ?? crypto.randomUUID();
  }

  /** Opens a record's sealed request with its own key, if that key still exists and is unlocked. */
  private async open(database: OfflineDatabase, record: OutboxRecord): Promise<Opened> {
    const keyRecord = await database.get('keys', record.keyId);
    return this.openWith(keyRecord, record.sealed);
  }

  private async openWith(keyRecord: StorageKeyRecord | undefined, sealed: SealedValue): Promise<Opened> {
    if (keyRecord === undefined || keyRecord.expiresAt <= this.env.now())
      return { readable: false, locked: false };
    if (keyRecord.key === null) return { readable: false, locked: true };
    const plain = await openSealedJson(keyRecord.key, sealed);
    const parsed = v.safeParse(outboxContentSchema, plain);
    if (!parsed.success) return { readable: false, locked: false };
    return { readable: true, key: keyRecord.key, content: parsed.output };
  }

  /**
   * Changes one record in a transaction of its own; `change` answers the new record, or null to
   * leave it (for example when a command changed its state meanwhile). Answers what was written.
   */
  private async update(
    id: string,
    change: (record: OutboxRecord) => OutboxRecord | null,
  ): Promise<OutboxRecord | null> {
    const database = await this.env.database();
    const transaction = database.transaction('outbox', 'readwrite');
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
  private async rewrite(
    select: (record: OutboxRecord) => boolean,
    change: (record: OutboxRecord) => OutboxRecord,
  ): Promise<Set<string>> {
    const database = await this.env.database();
    const transaction = database.transaction('outbox', 'readwrite');
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

  private async remove(id: string): Promise<OutboxRecord | undefined> {
    const database = await this.env.database();
    const transaction = database.transaction('outbox', 'readwrite');
    const work = (async () => {
      const record = await transaction.store.get(id);
      if (record !== undefined) await transaction.store.delete(id);
      return record;
    })();
    const [removed] = await Promise.all([work, transaction.done]);
    return removed;
  }

  // ─── Broadcasts ────────────────────────────────────────────────────────────────────────────────

  /**
   * Tells the pages the entries of `owner` now. Changes that come while a broadcast is being
   * prepared are folded into the next one, so a long replay does not decrypt the queue once per entry.
   */
  private notify(owner: string): Promise<void> {
    this.dirty.add(owner);
    this.flushing ??= this.flush();
    return this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.dirty.size > 0) {
      const owners = [...this.dirty];
      this.dirty.clear();
      for (const owner of owners) {
        try {
          this.env.broadcast({ type: 'outbox', owner, entries: await this.views(owner) });
        } catch (error) {
          console.error('Outbox: the entries could not be listed', error);
        }
      }
    }
    this.flushing = null;
  }

  /** The entries of `owner` its pages may see; those that cannot be decrypted are left out. */
  private async views(owner: string): Promise<OutboxEntryView[]> {
    const database = await this.env.database();
    const records = (await database.getAllFromIndex('outbox', 'owner', owner)).sort(bySequence);
    const keys = new Map<string, StorageKeyRecord | undefined>();
    const views: OutboxEntryView[] = [];
    for (const record of records) {
      if (!keys.has(record.keyId)) keys.set(record.keyId, await database.get('keys', record.keyId));
      const opened = await this.openWith(keys.get(record.keyId), record.sealed);
      if (!opened.readable) continue;
      const { content } = opened;
      views.push({
        id: record.id,
        sequence: record.sequence,
        accountId: content.accountId,
        method: content.method,
        url: content.url,
        body: parsedBody(content.body),
        summary: content.summary,
        createdAt: new Date(record.createdAt).toISOString(),
        attempts: record.attempts,
        state: record.state,
        error: content.error,
        current: content.current,
      });
    }
    return views;
  }
}
