import * as v from 'valibot';

/**
 * The protocol between the console's pages and the service worker that owns the outbox, the only
 * queue of changes made offline (docs/decisions/013-offline-console.md).
 *
 * A page marks a request queueable by sending it with an `Idempotency-Key` and the `X-Outbox-*`
 * headers below. The service worker strips the `X-Outbox-*` headers and the bearer token before it
 * sends or stores the request: an entry replays only with the token of its own user, handed over
 * at sign-in and kept in the worker's memory.
 */
export const OUTBOX_HEADERS = {
  idempotencyKey: 'Idempotency-Key',
  ifMatch: 'If-Match',
  /** The user id the change is made for; must have a live storage key and match the token, if any. */
  owner: 'X-Outbox-Owner',
  /** The account the change belongs to, for the outbox view. */
  account: 'X-Outbox-Account',
  /** A readable summary of the change ("Edit organization Acme"), URI-encoded. */
  summary: 'X-Outbox-Summary',
  /** The API path whose GET answers the object's current representation, for conflicts on 409. */
  resource: 'X-Outbox-Resource',
  /**
   * The object's fields as the screen showed them when the user acted, in the shape of the change's
   * body, as URI-encoded JSON. A change queued behind another change of the same object is moved onto
   * that change's result only when this equals what that change set: its screen showed it.
   */
  base: 'X-Outbox-Base',
} as const;

/**
 * A new Idempotency-Key value: a UUID as a Structured Field string (quoted), the form the server
 * requires (draft-ietf-httpapi-idempotency-key-header). Made when the user acts, kept with the change.
 */
export function newIdempotencyKey(uuid: string = crypto.randomUUID()): string {
  return `"${uuid}"`;
}

/** Name of the BroadcastChannel on which the service worker tells every open tab what changed. */
export const OUTBOX_CHANNEL = 'trust-console.outbox';

/** `202` answer of the service worker when it kept a change for later instead of sending it. */
export const queuedResponseSchema = v.object({
  queued: v.literal(true),
  outboxId: v.string(),
});
export type QueuedResponse = v.InferOutput<typeof queuedResponseSchema>;

/** Whether a change's result is the service worker's answer that it kept the change for later. */
export function isQueued(result: unknown): result is QueuedResponse {
  return v.is(queuedResponseSchema, result);
}

/**
 * - `pending`: waiting to be sent (or re-sent after a network failure or 5xx, at `nextAttemptAt`);
 * - `sending`: on the wire now;
 * - `held`: waiting for its own user to sign in again (401, sign-out with "keep", another user);
 * - `conflict`: 409 or 412; the user discards it or re-applies it on the current version;
 * - `failed`: another 4xx (404 included); the user edits and retries it, or discards it.
 */
export const OUTBOX_STATES = ['pending', 'sending', 'held', 'conflict', 'failed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export type OutboxMethod = 'POST' | 'PUT' | 'DELETE';

/** One queued change as pages see it, decrypted by the service worker for its own user only. */
export interface OutboxEntryView {
  id: string;
  /** Replay order: entries of one user are sent oldest first, one at a time. */
  sequence: number;
  accountId: string | null;
  method: OutboxMethod;
  /** Same-origin API path with its query. */
  url: string;
  /** The queued JSON body, parsed; `null` for a body-less DELETE. */
  body: unknown;
  summary: string;
  /** ISO 8601 instant the user acted. */
  createdAt: string;
  attempts: number;
  state: OutboxState;
  /** For `failed` and `conflict`: what the server answered. */
  error: { status: number; message: string } | null;
  /** For `conflict`: the server's current representation and its ETag, when it sent them. */
  current: { value: unknown; etag: string | null } | null;
}

/** Messages a page posts to the service worker (`navigator.serviceWorker.controller.postMessage`). */
export type OutboxCommand =
  /**
   * After sign-in and every refresh: the token replays this user's entries, kept in memory only.
   * The browser stops an idle worker and its memory with it, so pages post it again before every
   * `sync-now`. `expiresAt` is in epoch milliseconds; the token's `sub` must be `userId`.
   */
  | { type: 'session'; userId: string; accessToken: string; expiresAt: number }
  /** Sign-out or lost session: forget the token; `keep` false discards the user's entries. */
  | { type: 'session-ended'; userId: string; keep: boolean }
  /** Asks for an `outbox` event with the entries of this user. */
  | { type: 'list'; userId: string }
  | { type: 'sync-now' }
  | { type: 'discard'; id: string }
  /** Conflict: send the queued change again on the server's current version. */
  | { type: 'reapply'; id: string }
  /** Failed: send again, with the body the user edited when given. */
  | { type: 'retry'; id: string; body?: unknown }
  /** A new build is waiting and the user chose to load it. */
  | { type: 'skip-waiting' };

/** Messages the service worker broadcasts on `OUTBOX_CHANNEL`; `owner` is the user's owner tag. */
export type OutboxEvent =
  /** The entries of `owner` after any change, for the header count and the outbox panel. */
  | { type: 'outbox'; owner: string; entries: OutboxEntryView[] }
  /** An entry reached the server: pages refetch what it changed. */
  | { type: 'synced'; owner: string; id: string; url: string; status: number }
  /** The browser refused to store an entry; the change was not kept. */
  | { type: 'quota-exceeded'; owner: string; summary: string };

/** Status the service worker answers when storage refused the entry (RFC 4918 Insufficient Storage). */
export const OUTBOX_QUOTA_STATUS = 507;
