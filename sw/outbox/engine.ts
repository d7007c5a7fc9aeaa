import { type OfflineDatabase, type OutboxRecord, ownerTag } from '../../contract/offline-storage.ts';
import {
  newIdempotencyKey,
  OUTBOX_HEADERS,
  type OutboxCommand,
  type OutboxEntryView,
  type OutboxEvent,
  type OutboxMethod,
  type QueuedResponse,
} from '../../contract/outbox.ts';
import { BACKOFF_CAP_MS, backoffDelay } from './backoff.ts';
import {
  decodeBase,
  decodeSummary,
  forwardedHeaders,
  type OutboxContent,
  parsedBody,
  sameJson,
  storedHeaders,
} from './content.ts';
import { bearerToken, jwtSubject } from './jwt.ts';
import {
  currentFromAnswer,
  type ReplayOutcome,
  refusalMessage,
  replayOutcome,
  WORKER_REFUSALS,
  type WorkerRefusal,
} from './outcomes.ts';
import { type Opened, OutboxStore, type UnlockedKey } from './store.ts';

/**
 * The outbox: the one queue of changes made without a connection (docs/decisions/013-offline-console.md).
 * This file decides when entries are taken, sent and told to pages: interception, the replay loop
 * with its order and timer, the pages' commands and the broadcasts. How entries are kept is
 * `store.ts`; what an answer makes of an entry is the table of `outcomes.ts`.
 *
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

interface Session {
  userId: string;
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

type ReadableEntry = Extract<Opened, { readable: true }>;

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

function refusal(reason: WorkerRefusal): Response {
  const { status, message } = WORKER_REFUSALS[reason];
  return jsonResponse(status, { error: { status, message } });
}

export class OutboxEngine {
  private readonly store: OutboxStore;
  private readonly sessions = new Map<string, Session>();
  private readonly owners = new Map<string, string>();
  private started: Promise<void> | null = null;
  private replaying: Promise<void> | null = null;
  private replayAgain = false;
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;
  private cancelTimer: (() => void) | null = null;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly env: OutboxEnvironment) {
    this.store = new OutboxStore(env.database, env.now);
  }

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
      return refusal('workerFailure');
    }
  }

  private async interceptChecked(request: Request): Promise<Response> {
    await this.ready();
    const userId = request.headers.get(OUTBOX_HEADERS.owner);
    if (!userId) return refusal('noOwner');
    const bearer = bearerToken(request.headers.get('Authorization'));
    if (bearer !== null && jwtSubject(bearer) !== userId) return refusal('otherUser');

    const owner = await this.ownerOf(userId);
    const key = await this.store.liveKey(owner);
    if (key?.key == null) return refusal('signInAgain');
    const sealWith: UnlockedKey = { ...key, key: key.key };

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
      base: decodeBase(request.headers.get(OUTBOX_HEADERS.base)),
      error: null,
      current: null,
    };

    // Behind entries already waiting, a change is only sent in its turn: order is kept per user.
    if (await this.store.hasWaiting(owner)) return this.enqueue(owner, sealWith, content);

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
      return this.enqueue(owner, sealWith, content);
    }
  }

  private async enqueue(owner: string, key: UnlockedKey, content: OutboxContent): Promise<Response> {
    const id = this.newId();
    if ((await this.store.add({ id, owner, key, content })) === 'no-room') {
      this.env.broadcast({ type: 'quota-exceeded', owner, summary: content.summary });
      return refusal('noRoom');
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
    const byOwner = new Map<string, OutboxRecord[]>();
    for (const record of await this.store.all()) {
      byOwner.set(record.owner, [...(byOwner.get(record.owner) ?? []), record]);
    }

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
        if ((await this.send(record)) === 'stop') {
          const next = await this.store.get(record.id);
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

  private async send(listed: OutboxRecord): Promise<ReplayOutcome['replay']> {
    // Read again, not taken from the pass's list: the change before it may have rebased it.
    const record = await this.store.get(listed.id);
    if (record === undefined) return 'next';
    const opened = await this.store.open(record);
    // A damaged entry or one whose key is gone can never be sent; it is passed over, not deleted
    // (the console removes data with its key). One whose key is locked keeps its place.
    if (!opened.readable) return opened.locked ? 'stop' : 'next';
    const session = this.sessionOf(record.owner);
    if (session === null) return 'stop';

    const marked = await this.store.update(record.id, (current) =>
      current.state === 'pending' ? { ...current, state: 'sending' } : null,
    );
    if (marked === null) return 'stop';
    void this.notify(record.owner);

    const headers = new Headers(opened.content.headers);
    headers.set('Authorization', `Bearer ${session.token}`);
    let response: Response;
    try {
      response = await this.env.fetch(
        new Request(new URL(opened.content.url, this.env.origin), {
          method: opened.content.method,
          headers,
          body: opened.content.body,
          credentials: 'same-origin',
        }),
      );
    } catch {
      const unanswered = replayOutcome(null, this.env.now());
      await this.retryLater(marked, unanswered.atLeastMs, { answered: false });
      return unanswered.replay;
    }
    const outcome = replayOutcome(
      { status: response.status, retryAfter: response.headers.get('Retry-After') },
      this.env.now(),
    );
    await this.settle(marked, opened, session, response, outcome);
    return outcome.replay;
  }

  /** Carries out what the server's answer makes of the entry. */
  private async settle(
    record: OutboxRecord,
    entry: ReadableEntry,
    session: Session,
    response: Response,
    outcome: ReplayOutcome,
  ): Promise<void> {
    switch (outcome.entry) {
      case 'remove': {
        await response.body?.cancel();
        await this.store.remove(record.id);
        await this.rebaseQueuedBehind(record, entry.content, response.headers.get('ETag'));
        const { url } = entry.content;
        this.env.broadcast({
          type: 'synced',
          owner: record.owner,
          id: record.id,
          url,
          status: response.status,
        });
        void this.notify(record.owner);
        return;
      }
      case 'hold':
        await response.body?.cancel();
        return this.holdAfterRefusedToken(record, session);
      case 'retry':
        await response.body?.cancel();
        return this.retryLater(record, outcome.atLeastMs, { answered: true });
      case 'conflict':
      case 'failed':
        return this.setAside(record, entry, session, response, outcome);
    }
  }

  /**
   * A change that reached the server made a new version of its object, whose fields are now the ones
   * it sent: every queueable edit sends the object's whole field set. A change of the same user still
   * waiting for the same path moves onto that version only when its screen showed exactly those
   * fields (its base equals the sent body): it then changes what its user saw, and conflicts only
   * with someone else's change. Any other keeps its If-Match and comes back 412, so its user sees the
   * current value beside theirs and chooses. A change made where the earlier one did not show
   * (another tab, a reload, an entry without a base) never silently undoes it.
   *
   * The waiting change's own If-Match is not compared: in a chain of edits on one screen the third
   * showed the second's result, not the first's, and moves when the second lands. Equal content is
   * what makes the move safe, whichever version the screen was loaded from.
   */
  private async rebaseQueuedBehind(
    record: OutboxRecord,
    sent: OutboxContent,
    etag: string | null,
  ): Promise<void> {
    if (etag === null || sent.headers[OUTBOX_HEADERS.ifMatch] === undefined) return;
    // Only an edit's body says what the object now holds; after a deletion nothing moves.
    const result = parsedBody(sent.body);
    if (typeof result !== 'object' || result === null) return;
    for (const { record: behind, content } of await this.store.readableOf(record.owner)) {
      const waiting = behind.state === 'pending' || behind.state === 'held';
      if (!waiting || content.url !== sent.url || content.headers[OUTBOX_HEADERS.ifMatch] === undefined)
        continue;
      if (!sameJson(content.base, result)) continue;
      const opened = await this.store.open(behind);
      if (!opened.readable) continue;
      const sealed = await this.store.seal(opened.key, {
        ...content,
        headers: { ...content.headers, [OUTBOX_HEADERS.ifMatch]: etag },
      });
      // Only while it still waits as it did: a command of the user's may have moved it meanwhile.
      await this.store.update(behind.id, (current) =>
        current.state === behind.state ? { ...current, sealed } : null,
      );
    }
  }

  /** Conflict or failure: the server's answer is sealed into the entry, which waits for the user. */
  private async setAside(
    record: OutboxRecord,
    { content, key }: ReadableEntry,
    session: Session,
    response: Response,
    outcome: Extract<ReplayOutcome, { entry: 'conflict' | 'failed' }>,
  ): Promise<void> {
    const { status } = response;
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text());
    } catch {
      body = null;
    }
    const error = {
      status,
      message: (outcome.entry === 'failed' ? outcome.message : null) ?? refusalMessage(status, body),
    };
    let current: OutboxContent['current'] = null;
    if (outcome.entry === 'conflict') {
      current =
        outcome.current === 'from-answer'
          ? currentFromAnswer(body, response.headers.get('ETag'))
          : await this.currentOf(content, session);
    }
    const sealed = await this.store.seal(key, { ...content, error, current });
    await this.store.update(record.id, (stored) => ({
      ...stored,
      state: outcome.entry,
      nextAttemptAt: null,
      sealed,
    }));
    void this.notify(record.owner);
  }

  /** 401: the token is spent, so the user's entries wait for the same user's next session. */
  private async holdAfterRefusedToken(record: OutboxRecord, session: Session): Promise<void> {
    if (this.sessions.get(record.owner)?.token !== session.token && this.sessionOf(record.owner) !== null) {
      // A newer session arrived while this was on the wire: the entry goes out again with it.
      await this.store.update(record.id, (current) => ({
        ...current,
        state: 'pending',
        nextAttemptAt: null,
      }));
      return;
    }
    this.sessions.delete(record.owner);
    await this.store.rewrite(
      (stored) =>
        stored.owner === record.owner &&
        (stored.id === record.id || stored.state === 'pending' || stored.state === 'sending'),
      (stored) => ({ ...stored, state: 'held', nextAttemptAt: null }),
    );
    void this.notify(record.owner);
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
  private async retryLater(
    record: OutboxRecord,
    atLeastMs: number | null,
    { answered }: { answered: boolean },
  ): Promise<void> {
    const attempts = record.attempts + 1;
    const delay = Math.min(BACKOFF_CAP_MS, Math.max(backoffDelay(attempts, this.env.random), atLeastMs ?? 0));
    const held = this.sessionOf(record.owner) === null;
    await this.store.update(record.id, (current) => ({
      ...current,
      state: held ? 'held' : 'pending',
      attempts,
      nextAttemptAt: held ? null : this.env.now() + delay,
      waitingForNetwork: !answered,
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
        return this.connectionMayBeBack();
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
   * A sign that the network may be back (the browser's Background Sync, a page's `online`, focus or
   * visibility, the user's "Sync now"): entries that got no answer go now instead of waiting out the
   * back-off their failures offline built up. Their attempts count on, so a network still down makes
   * the next wait as long as it would have been; entries the server asked to wait (5xx, Retry-After)
   * keep their time, so a failing server is not sent a request on every focus.
   */
  async connectionMayBeBack(): Promise<void> {
    await this.ready();
    await this.store.rewrite(
      (record) =>
        record.state === 'pending' && record.nextAttemptAt !== null && record.waitingForNetwork === true,
      (record) => ({ ...record, nextAttemptAt: null }),
    );
    return this.replay();
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
    const changed = await this.store.rewrite(
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
      await this.store.rewrite(
        (record) => record.owner === owner && (record.state === 'pending' || record.state === 'sending'),
        (record) => ({ ...record, state: 'held', nextAttemptAt: null }),
      );
    } else {
      await this.store.removeAllOf(owner);
    }
    await this.notify(owner);
  }

  private async discard(id: string): Promise<void> {
    const removed = await this.store.remove(id);
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
    const record = await this.store.get(id);
    if (record?.state !== from) return;
    const opened = await this.store.open(record);
    if (!opened.readable) return;
    const changed = change(opened.content);
    const content: OutboxContent = {
      ...changed,
      headers: { ...changed.headers, [OUTBOX_HEADERS.idempotencyKey]: newIdempotencyKey(this.newId()) },
      error: null,
      current: null,
    };
    const sealed = await this.store.seal(opened.key, content);
    const updated = await this.store.update(id, (current) =>
      current.state === from
        ? { ...current, state: 'pending', attempts: 0, nextAttemptAt: null, sealed }
        : null,
    );
    if (updated === null) return;
    await this.notify(record.owner);
    void this.replay();
  }

  // ─── Identity ──────────────────────────────────────────────────────────────────────────────────

  private ready(): Promise<void> {
    this.started ??= this.store
      .rewrite(
        (record) => record.state === 'sending',
        (record) => ({ ...record, state: 'pending' }),
      )
      .then(
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
    return (await this.store.readableOf(owner)).map(({ record, content }) => ({
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
    }));
  }
}
