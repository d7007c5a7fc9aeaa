import { createContext, useContext, useSyncExternalStore } from 'react';
import {
  OUTBOX_CHANNEL,
  OUTBOX_STATES,
  type OutboxCommand,
  type OutboxEntryView,
  type OutboxEvent,
  type OutboxState,
} from '../../../contract/outbox.ts';

/**
 * The page's side of the outbox (docs/decisions/013-offline-console.md): commands go to the service
 * worker, which owns the queue; what it broadcasts on `OUTBOX_CHANNEL` keeps every tab in step, and
 * tabs only render it.
 */

/** Posts to the worker that controls the page, or to the active one once it is ready. */
export function postOutboxCommand(command: OutboxCommand): void {
  const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  if (!container) return;
  if (container.controller) {
    container.controller.postMessage(command);
    return;
  }
  void container.ready.then((registration) => registration.active?.postMessage(command));
}

interface OutboxSnapshot {
  owner: string | null;
  entries: readonly OutboxEntryView[];
}

const EMPTY: readonly OutboxEntryView[] = [];

function isState(value: unknown): value is OutboxState {
  return OUTBOX_STATES.includes(value as OutboxState);
}

/** Broadcast messages are input like any other: only well-formed events of the known types pass. */
function asOutboxEvent(data: unknown): OutboxEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const event = data as Partial<Record<string, unknown>>;
  if (typeof event.owner !== 'string') return null;
  if (event.type === 'outbox' && Array.isArray(event.entries)) {
    const entries = event.entries.filter(
      (entry): entry is OutboxEntryView =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as OutboxEntryView).id === 'string' &&
        typeof (entry as OutboxEntryView).url === 'string' &&
        isState((entry as OutboxEntryView).state),
    );
    return { type: 'outbox', owner: event.owner, entries };
  }
  if (event.type === 'synced' && typeof event.url === 'string' && typeof event.id === 'string') {
    return {
      type: 'synced',
      owner: event.owner,
      id: event.id,
      url: event.url,
      status: Number(event.status),
    };
  }
  if (event.type === 'quota-exceeded') {
    return { type: 'quota-exceeded', owner: event.owner, summary: String(event.summary ?? '') };
  }
  return null;
}

export interface OutboxConnection {
  /** Owner tag of the signed-in user: events of other owners are ignored. */
  owner: string;
  userId: string;
  /** Hands the session's token to the worker, which replays with it (`SessionController.postToWorker`). */
  postSession: () => void;
  /** A queued change reached the server: refetch what it changed. */
  onSynced?: (url: string) => void;
  /**
   * A queued change left the outbox without reaching the server (discarded in this tab or another):
   * the cached data still shows its values, so what it would have changed is read again.
   */
  onDiscarded?: (url: string) => void;
  /** The browser refused to store a change. */
  onQuotaExceeded?: (summary: string) => void;
}

/**
 * The signed-in user's outbox as this page sees it, one per page's secure sessions
 * (`secure-session.ts`), which connect it for the user and tell it whose changes the worker may keep.
 * Components reach it through `OutboxProvider`, which the secure layout gives them.
 */
export class Outbox {
  #snapshot: OutboxSnapshot = { owner: null, entries: EMPTY };
  readonly #listeners = new Set<() => void>();
  /**
   * Posts the session's token to the worker before a sync: the browser stops an idle worker and its
   * memory with it. Named by the connection; nothing to post while no user's outbox is connected.
   */
  #postSession: () => void = () => undefined;
  #keeper: string | null = null;

  /**
   * The user whose changes the service worker can keep in this page: set once a live storage key of
   * theirs exists, cleared when it goes. Without it a queueable change is sent as a plain one (with its
   * Idempotency-Key and If-Match): the worker refuses to take changes it could not seal.
   */
  keepChangesOf(userId: string | null): void {
    this.#keeper = userId;
  }

  /** Whether the worker may keep a queueable change made for `owner` (`keepChangesOf`). */
  keeps(owner: string): boolean {
    return owner === this.#keeper;
  }

  readonly syncNow = (): void => {
    this.#postSession();
    postOutboxCommand({ type: 'sync-now' });
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The signed-in user's queued changes, oldest first; empty for everyone else's. */
  readonly entries = (): readonly OutboxEntryView[] => this.#snapshot.entries;

  #publish(next: OutboxSnapshot): void {
    this.#snapshot = next;
    for (const listener of this.#listeners) listener();
  }

  /**
   * Listens to the worker's broadcasts for one user, asks for their entries, and asks for a sync
   * whenever the connection or the user comes back (online, focus, tab shown). Returns the disconnect.
   */
  connect({
    owner,
    userId,
    postSession,
    onSynced,
    onDiscarded,
    onQuotaExceeded,
  }: OutboxConnection): () => void {
    this.#postSession = postSession;
    this.#publish({ owner, entries: EMPTY });
    // Entries the worker reported as sent: their leaving the list is not a discard.
    const synced = new Set<string>();
    const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(OUTBOX_CHANNEL) : null;
    if (channel) {
      channel.onmessage = (message: MessageEvent) => {
        const event = asOutboxEvent(message.data);
        if (!event || event.owner !== owner || this.#snapshot.owner !== owner) return;
        if (event.type === 'outbox') {
          const remaining = new Set(event.entries.map((entry) => entry.id));
          const discarded = this.#snapshot.entries.filter(
            (entry) => !remaining.has(entry.id) && !synced.delete(entry.id),
          );
          this.#publish({ owner, entries: [...event.entries].sort(bySequence) });
          for (const entry of discarded) onDiscarded?.(entry.url);
        } else if (event.type === 'synced') {
          synced.add(event.id);
          onSynced?.(event.url);
        } else onQuotaExceeded?.(event.summary);
      };
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') this.syncNow();
    };
    window.addEventListener('online', this.syncNow);
    window.addEventListener('focus', this.syncNow);
    document.addEventListener('visibilitychange', onVisible);
    postOutboxCommand({ type: 'list', userId });
    this.syncNow();
    return () => {
      channel?.close();
      window.removeEventListener('online', this.syncNow);
      window.removeEventListener('focus', this.syncNow);
      document.removeEventListener('visibilitychange', onVisible);
      if (this.#postSession === postSession) this.#postSession = () => undefined;
      if (this.#snapshot.owner === owner) this.#publish({ owner: null, entries: EMPTY });
    };
  }
}

const OutboxContext = createContext<Outbox | null>(null);

/** Gives the page's outbox to the secure screens (the secure layout). */
export const OutboxProvider = OutboxContext.Provider;

export function useOutbox(): Outbox {
  const outbox = useContext(OutboxContext);
  if (!outbox) throw new Error('useOutbox needs an OutboxProvider above it');
  return outbox;
}

/** The signed-in user's queued changes, oldest first; empty for everyone else's. */
export function useOutboxEntries(): readonly OutboxEntryView[] {
  const outbox = useOutbox();
  return useSyncExternalStore(outbox.subscribe, outbox.entries, () => EMPTY);
}

function bySequence(a: OutboxEntryView, b: OutboxEntryView): number {
  return a.sequence - b.sequence;
}

/** The path of an entry's URL, without its query. */
export function entryPath(entry: Pick<OutboxEntryView, 'url'>): string {
  return new URL(entry.url, 'http://console.invalid').pathname;
}

/** Entries that change the object (or collection) at `path`: what its "pending sync" badge shows. */
export function entriesFor(
  entries: readonly OutboxEntryView[],
  path: string,
  method?: OutboxEntryView['method'],
): OutboxEntryView[] {
  return entries.filter((entry) => entryPath(entry) === path && (!method || entry.method === method));
}
