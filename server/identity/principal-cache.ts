import type { Kysely } from 'kysely';
import { type ChangeFeed, changeFeedOf } from '../db/connection.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from './principal.ts';

/**
 * How long a session's caller is remembered at most. Changes end it sooner (below); this bounds only a
 * listening connection that died without telling, which would otherwise keep a revoked session working.
 */
export const PRINCIPAL_CACHE_TTL_MS = 2_000;

/** The channel the triggers of migration 20261229T1000 notify on each change of a caller. */
const PRINCIPAL_CHANGED_CHANNEL = 'principal_changed';

/** How many sessions each process remembers; a principal takes about a kilobyte. */
const PRINCIPALS_KEPT = 5_000;

/** After the listening connection failed, how long until the next request tries to listen again. */
const RELISTEN_DELAY_MS = 1_000;

interface Remembered {
  principal: Principal;
  /** The session's `expires_at`, ms since the epoch, compared with the platform's clock as the query does. */
  sessionExpiresAt: number;
  /** `performance.now()` when it was read from the database. */
  readAt: number;
}

/**
 * The callers of live sessions, read from the database and remembered for a short while, per process
 * (decision 024, "Throughput at fifty clients"). A remembered caller is forgotten:
 * - when the database says anything it was made of changed: triggers notify on `principal_changed`
 *   (migration 20261229T1000) and every process listens; a user's own changes forget that user,
 *   role and account changes everyone;
 * - when a statement that may change data (anything but a plain select) starts and ends in this
 *   process (`WriteObserver`), so whoever revoked a session or changed a role here sees it on their
 *   next request even before the notification arrives;
 * - when its session expires, and `PRINCIPAL_CACHE_TTL_MS` after it was read.
 * Nothing is remembered unless the process is listening, and an answer read while a change arrived is
 * not remembered (`generation`), so a change never leaves an older answer behind.
 */
export class PrincipalCache {
  readonly #entries = new Map<string, Remembered>();
  readonly #listen: ChangeFeed['listen'];
  #listening: 'no' | 'starting' | 'yes' = 'no';
  #nextListenAt = 0;
  /** Grows with every change seen: an answer read under an older generation may predate the change. */
  #generation = 0;

  constructor(changes: ChangeFeed) {
    this.#listen = changes.listen;
    // Forgotten at the start and at the end of the statement: an answer read in between is not kept.
    changes.writes.subscribe(() => this.forget(null));
  }

  /** The remembered caller of session `sessionId` for user `userId` at `now`, or undefined. */
  get(sessionId: string, userId: string, now: Date): Principal | undefined {
    this.#ensureListening();
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return undefined;
    if (
      this.#listening !== 'yes' ||
      entry.principal.userId !== userId ||
      entry.sessionExpiresAt <= now.getTime() ||
      performance.now() - entry.readAt >= PRINCIPAL_CACHE_TTL_MS
    ) {
      this.#entries.delete(sessionId);
      return undefined;
    }
    return entry.principal;
  }

  /** The generation to hand back to `remember` with what is read from the database now. */
  get generation(): number {
    return this.#generation;
  }

  /** Remembers a caller read from the database when `generation` was current, unless a change came since. */
  remember(sessionId: string, principal: Principal, sessionExpiresAt: Date, generation: number): void {
    if (this.#listening !== 'yes' || generation !== this.#generation) return;
    if (this.#entries.size >= PRINCIPALS_KEPT) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(sessionId, {
      principal,
      sessionExpiresAt: sessionExpiresAt.getTime(),
      readAt: performance.now(),
    });
  }

  /** Forgets user `userId`'s sessions, or everyone's when null. */
  forget(userId: string | null): void {
    this.#generation += 1;
    if (userId === null) {
      this.#entries.clear();
      return;
    }
    for (const [sessionId, entry] of this.#entries) {
      if (entry.principal.userId === userId) this.#entries.delete(sessionId);
    }
  }

  #ensureListening(): void {
    if (this.#listening !== 'no' || performance.now() < this.#nextListenAt) return;
    this.#listening = 'starting';
    const stopListening = () => {
      this.#listening = 'no';
      this.#nextListenAt = performance.now() + RELISTEN_DELAY_MS;
      // Changes may have gone unheard.
      this.forget(null);
    };
    this.#listen(PRINCIPAL_CHANGED_CHANNEL, {
      notified: (payload) => this.forget(payload === '' ? null : payload),
      lost: stopListening,
    }).then(() => {
      // A loss reported while connecting already set `no`.
      if (this.#listening === 'starting') this.#listening = 'yes';
    }, stopListening);
  }
}

const caches = new WeakMap<Kysely<Database>, PrincipalCache>();

/** The cache of `db`'s callers, or null for a database without notifications: nothing is then remembered. */
export function principalCacheOf(db: Kysely<Database>): PrincipalCache | null {
  const known = caches.get(db);
  if (known !== undefined) return known;
  const changes = changeFeedOf(db);
  if (changes === undefined) return null;
  const cache = new PrincipalCache(changes);
  caches.set(db, cache);
  return cache;
}
