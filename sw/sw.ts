import type { PrecacheEntry } from 'workbox-precaching';
import { type OfflineDatabase, openOfflineDatabase } from '../contract/offline-storage.ts';
import { OUTBOX_CHANNEL, type OutboxEvent } from '../contract/outbox.ts';
import { parseOutboxCommand } from './outbox/commands.ts';
import { isQueueable } from './outbox/content.ts';
import { OutboxEngine } from './outbox/engine.ts';
import { registerShellRoutes } from './shell.ts';

/** Background Sync is not in every browser (nor in TypeScript's worker types): used when present. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | PrecacheEntry)[];
  registration: ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
};

const SYNC_TAG = 'trust-console-outbox';
const origin = self.location.origin;

let database: Promise<OfflineDatabase> | null = null;

/** A database of a newer build makes `openOfflineDatabase` refuse; this worker then leaves it alone. */
async function openDatabase(): Promise<OfflineDatabase> {
  const opened = await openOfflineDatabase((reason) => {
    console.info(`Offline data was discarded (${reason}).`);
  });
  // A newer build upgrading the database must not wait for this worker: it lets go and reopens later.
  opened.addEventListener('versionchange', () => {
    opened.close();
    database = null;
  });
  opened.addEventListener('close', () => {
    database = null;
  });
  return opened;
}

function sharedDatabase(): Promise<OfflineDatabase> {
  database ??= openDatabase().catch((error: unknown) => {
    database = null;
    throw error;
  });
  return database;
}

const channel = new BroadcastChannel(OUTBOX_CHANNEL);

const engine = new OutboxEngine({
  database: sharedDatabase,
  origin,
  fetch: (request) => fetch(request),
  now: () => Date.now(),
  random: () => Math.random(),
  broadcast: (event: OutboxEvent) => channel.postMessage(event),
  requestSync: async () => {
    await self.registration.sync?.register(SYNC_TAG);
  },
});

// The outbox listens first: its requests are never routed to a cache.
self.addEventListener('fetch', (event) => {
  if (!isQueueable(event.request, origin)) return;
  const answer = engine.intercept(event.request);
  event.respondWith(answer);
  event.waitUntil(answer.then(() => engine.idle()));
});

registerShellRoutes(self.__WB_MANIFEST, origin);

self.addEventListener('message', (event) => {
  const command = parseOutboxCommand(event.data);
  if (command === null) return;
  // A new build waits until the user chooses to load it (the console shows the prompt).
  if (command.type === 'skip-waiting') {
    event.waitUntil(self.skipWaiting());
    return;
  }
  event.waitUntil(engine.command(command).then(() => engine.idle()));
});

self.addEventListener('sync', (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(engine.connectionMayBeBack().then(() => engine.idle()));
});

self.addEventListener('activate', (event) => {
  // The first worker takes the open tabs at once, so their changes reach the outbox without a reload.
  event.waitUntil(self.clients.claim());
});

// Worker start: entries left `sending` go back to `pending`, then whatever is due replays.
engine.start().catch((error: unknown) => {
  console.warn('Outbox: could not start', error);
});
