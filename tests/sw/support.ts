import { IDBFactory } from 'fake-indexeddb';
import {
  type OfflineDatabase,
  type OutboxRecord,
  openOfflineDatabase,
  openSealedJson,
  ownerTag,
  type StorageKeyRecord,
} from '../../contract/offline-storage.ts';
import { OUTBOX_HEADERS, type OutboxEntryView, type OutboxEvent } from '../../contract/outbox.ts';
import type { OutboxContent } from '../../sw/outbox/content.ts';
import { OutboxEngine } from '../../sw/outbox/engine.ts';

export const ORIGIN = 'https://console.example';
export const START = Date.parse('2026-03-02T09:00:00Z');
const HOUR = 3_600_000;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An access token as the server issues them, unsigned: the worker only reads its subject. */
export function tokenFor(userId: string, tag = 'a'): string {
  return `${base64url({ alg: 'EdDSA', typ: 'JWT' })}.${base64url({ sub: userId, jti: tag })}.c2lnbmF0dXJl`;
}

/** A fresh, empty IndexedDB for each test. */
export function freshIndexedDb(): void {
  globalThis.indexedDB = new IDBFactory();
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

type Answer =
  | Response
  | 'network-error'
  | ((request: SentRequest) => Response | 'network-error' | Promise<Response>);

/**
 * A server behind `fetch`: records every request exactly as it would go on the wire (headers in
 * lower case) and answers from a script, one answer per request, then `fallback`.
 */
export class FakeServer {
  /** Every request the engine sent while online, whether or not an answer came back. */
  readonly requests: SentRequest[] = [];
  /** Requests that reached the server and got an answer. */
  readonly delivered: SentRequest[] = [];
  /** Requests tried while offline: they never left the browser. */
  readonly offlineAttempts: SentRequest[] = [];
  /** While true, every request fails as with no network. */
  offline = false;
  private readonly script: Answer[] = [];
  inFlight = 0;
  maxInFlight = 0;
  fallback: Answer = () => new Response(null, { status: 204 });

  answer(...answers: Answer[]): this {
    this.script.push(...answers);
    return this;
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const sent: SentRequest = {
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    };
    if (this.offline) {
      this.offlineAttempts.push(sent);
      throw new TypeError('Failed to fetch');
    }
    this.requests.push(sent);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // A tick on the wire, so overlapping senders would show up in `maxInFlight`.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const next = this.script.shift() ?? this.fallback;
      const answer = typeof next === 'function' ? await next(sent) : next;
      if (answer === 'network-error') throw new TypeError('Failed to fetch');
      this.delivered.push(sent);
      return answer;
    } finally {
      this.inFlight -= 1;
    }
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function apiError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: { status, message } }, headers);
}

export interface Timer {
  callback: () => void;
  delayMs: number;
  cancelled: boolean;
}

export interface ChangeOptions {
  method?: 'POST' | 'PUT' | 'DELETE';
  path?: string;
  body?: unknown;
  userId?: string;
  /** The page's bearer token; `null` sends none. Defaults to a token of `userId`. */
  token?: string | null;
  key?: string;
  ifMatch?: string;
  summary?: string;
  account?: string;
  resource?: string;
  /** The object's fields as the page showed them (`X-Outbox-Base`); none when absent. */
  base?: unknown;
}

/** A change as the console's API client sends a queueable mutation. */
export function change(options: ChangeOptions = {}): Request {
  const userId = options.userId ?? 'user-1';
  const headers = new Headers({
    'Content-Type': 'application/json',
    Accept: 'application/json',
    [OUTBOX_HEADERS.idempotencyKey]: options.key ?? 'key-1',
    [OUTBOX_HEADERS.owner]: userId,
    [OUTBOX_HEADERS.summary]: encodeURIComponent(options.summary ?? 'Edit organization Acme'),
    [OUTBOX_HEADERS.account]: options.account ?? 'account-1',
    'X-Requested-With': 'trust-console',
  });
  if (options.ifMatch) headers.set(OUTBOX_HEADERS.ifMatch, options.ifMatch);
  if (options.resource) headers.set(OUTBOX_HEADERS.resource, options.resource);
  if (options.base !== undefined)
    headers.set(OUTBOX_HEADERS.base, encodeURIComponent(JSON.stringify(options.base)));
  const token = options.token === undefined ? tokenFor(userId) : options.token;
  if (token !== null) headers.set('Authorization', `Bearer ${token}`);
  const method = options.method ?? 'PUT';
  return new Request(`${ORIGIN}${options.path ?? '/account/ui-api/v1/organizations/org-1'}`, {
    method,
    headers,
    body: method === 'DELETE' ? null : JSON.stringify(options.body ?? { name: 'Acme' }),
  });
}

/** One engine over a fresh database, a fake server, a clock, a timer list and a broadcast log. */
export class Harness {
  readonly server = new FakeServer();
  readonly events: OutboxEvent[] = [];
  readonly timers: Timer[] = [];
  now = START;
  random = 0.5;
  syncRequests = 0;
  private ids = 0;
  engine: OutboxEngine;

  private constructor(readonly database: OfflineDatabase) {
    this.engine = this.newEngine();
  }

  static async create(): Promise<Harness> {
    freshIndexedDb();
    return new Harness(await openOfflineDatabase());
  }

  /** A new engine on the same database, as after the browser stopped and restarted the worker. */
  newEngine(): OutboxEngine {
    this.engine?.dispose();
    this.engine = new OutboxEngine({
      database: async () => this.database,
      origin: ORIGIN,
      fetch: this.server.fetch,
      now: () => this.now,
      random: () => this.random,
      broadcast: (event) => this.events.push(structuredClone(event)),
      newId: () => `generated-${++this.ids}`,
      requestSync: async () => {
        this.syncRequests += 1;
      },
      setTimer: (callback, delayMs) => {
        const timer: Timer = { callback, delayMs, cancelled: false };
        this.timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    });
    return this.engine;
  }

  /** A storage key for `userId` (live unless told otherwise), as the console makes at sign-in. */
  async addKey(
    userId: string,
    options: { keyId?: string; locked?: boolean; expiresAt?: number; createdAt?: number } = {},
  ): Promise<StorageKeyRecord> {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const record: StorageKeyRecord = {
      keyId: options.keyId ?? `key-of-${userId}`,
      owner: await ownerTag(userId),
      key: options.locked ? null : key,
      wrapped: new ArrayBuffer(40),
      createdAt: options.createdAt ?? this.now,
      expiresAt: options.expiresAt ?? this.now + 8 * HOUR,
    };
    await this.database.put('keys', record);
    return { ...record, key };
  }

  async signIn(userId: string, token = tokenFor(userId)): Promise<void> {
    await this.engine.command({ type: 'session', userId, accessToken: token, expiresAt: this.now + HOUR });
    await this.engine.idle();
  }

  /** Queues a change while the network is down (the engine's attempt, if any, fails). */
  async queueOffline(options: ChangeOptions = {}): Promise<string> {
    const wasOffline = this.server.offline;
    this.server.offline = true;
    try {
      const response = await this.engine.intercept(change(options));
      if (response.status !== 202) throw new Error(`expected 202, got ${response.status}`);
      await this.engine.idle();
      return ((await response.json()) as { outboxId: string }).outboxId;
    } finally {
      this.server.offline = wasOffline;
    }
  }

  async records(): Promise<OutboxRecord[]> {
    return (await this.database.getAll('outbox')).sort((a, b) => a.sequence - b.sequence);
  }

  async record(id: string): Promise<OutboxRecord | undefined> {
    return this.database.get('outbox', id);
  }

  /** The sealed request of a record, opened with its key. */
  async content(id: string): Promise<OutboxContent> {
    const record = await this.record(id);
    const keyRecord = record && (await this.database.get('keys', record.keyId));
    if (!record || !keyRecord?.key) throw new Error(`no readable record ${id}`);
    return (await openSealedJson(keyRecord.key, record.sealed)) as OutboxContent;
  }

  /** The last `outbox` broadcast for `userId`. */
  async lastList(userId: string): Promise<OutboxEntryView[] | undefined> {
    const owner = await ownerTag(userId);
    const lists = this.events.filter(
      (event): event is Extract<OutboxEvent, { type: 'outbox' }> =>
        event.type === 'outbox' && event.owner === owner,
    );
    return lists.at(-1)?.entries;
  }

  /** Fires the live back-off timer after moving the clock to its moment. */
  async fireTimer(): Promise<void> {
    const timer = this.timers.filter((candidate) => !candidate.cancelled).at(-1);
    if (!timer) throw new Error('no timer is set');
    timer.cancelled = true;
    this.now += timer.delayMs;
    timer.callback();
    await this.engine.idle();
  }

  liveTimers(): Timer[] {
    return this.timers.filter((timer) => !timer.cancelled);
  }
}

/**
 * One object as the server keeps it, answering changes under If-Match as the platform API does: a
 * change on the current version is applied (a PUT sets the fields it sends, a DELETE removes the
 * object) and answered 204 with the new ETag; one on another version is refused 412 with `current`.
 */
export class VersionedObject {
  deleted = false;

  constructor(
    public value: Record<string, unknown>,
    public version = 1,
  ) {}

  get etag(): string {
    return `"${this.version}"`;
  }

  readonly answer = (request: SentRequest): Response => {
    if (this.deleted) return apiError(404, 'Organization not found.');
    if (request.headers['if-match'] !== this.etag) {
      return json(
        412,
        {
          error: { status: 412, message: 'Organization has changed since it was read.' },
          current: this.value,
        },
        { ETag: this.etag },
      );
    }
    if (request.method === 'DELETE') {
      this.deleted = true;
      return new Response(null, { status: 204 });
    }
    this.value = { ...this.value, ...(JSON.parse(request.body) as Record<string, unknown>) };
    this.version += 1;
    return new Response(null, { status: 204, headers: { ETag: this.etag } });
  };
}
