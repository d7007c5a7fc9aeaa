import { useSyncExternalStore } from 'react';
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

/**
 * Posts the session's token to the worker before a sync: the browser stops an idle worker and its
 * memory with it. Named by the connection; nothing to post while no user's outbox is connected.
 */
let postSession: () => void = () => undefined;

export function syncNow(): void {
  postSession();
  postOutboxCommand({ type: 'sync-now' });
}

interface OutboxSnapshot {
  owner: string | null;
  entries: readonly OutboxEntryView[];
}

const EMPTY: readonly OutboxEntryView[] = [];
let snapshot: OutboxSnapshot = { owner: null, entries: EMPTY };
const listeners = new Set<() => void>();

function publish(next: OutboxSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

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
 * Listens to the worker's broadcasts for one user, asks for their entries, and asks for a sync
 * whenever the connection or the user comes back (online, focus, tab shown). Returns the disconnect.
 */
export function connectOutbox({
  owner,
  userId,
  postSession: post,
  onSynced,
  onDiscarded,
  onQuotaExceeded,
}: OutboxConnection): () => void {
  postSession = post;
  publish({ owner, entries: EMPTY });
  // Entries the worker reported as sent: their leaving the list is not a discard.
  const synced = new Set<string>();
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(OUTBOX_CHANNEL) : null;
  if (channel) {
    channel.onmessage = (message: MessageEvent) => {
      const event = asOutboxEvent(message.data);
      if (!event || event.owner !== owner || snapshot.owner !== owner) return;
      if (event.type === 'outbox') {
        const remaining = new Set(event.entries.map((entry) => entry.id));
        const discarded = snapshot.entries.filter(
          (entry) => !remaining.has(entry.id) && !synced.delete(entry.id),
        );
        publish({ owner, entries: [...event.entries].sort(bySequence) });
        for (const entry of discarded) onDiscarded?.(entry.url);
      } else if (event.type === 'synced') {
        synced.add(event.id);
        onSynced?.(event.url);
      } else onQuotaExceeded?.(event.summary);
    };
  }
  const onVisible = () => {
    if (document.visibilityState === 'visible') syncNow();
  };
  window.addEventListener('online', syncNow);
  window.addEventListener('focus', syncNow);
  document.addEventListener('visibilitychange', onVisible);
  postOutboxCommand({ type: 'list', userId });
  syncNow();
  return () => {
    channel?.close();
    window.removeEventListener('online', syncNow);
    window.removeEventListener('focus', syncNow);
    document.removeEventListener('visibilitychange', onVisible);
    if (postSession === post) postSession = () => undefined;
    if (snapshot.owner === owner) publish({ owner: null, entries: EMPTY });
  };
}

function bySequence(a: OutboxEntryView, b: OutboxEntryView): number {
  return a.sequence - b.sequence;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const entriesNow = () => snapshot.entries;

/** The signed-in user's queued changes, oldest first; empty for everyone else's. */
export function useOutboxEntries(): readonly OutboxEntryView[] {
  return useSyncExternalStore(subscribe, entriesNow, () => EMPTY);
}

/** For code outside React (the sign-out choice): the entries as they are now. */
export function currentOutboxEntries(): readonly OutboxEntryView[] {
  return snapshot.entries;
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
