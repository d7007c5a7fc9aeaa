import { OUTBOX_QUOTA_STATUS } from '../../contract/outbox.ts';
import { retryAfterDelay } from './backoff.ts';

/**
 * What the outbox does with an answer, as data (docs/decisions/013-offline-console.md, "Replay" and
 * "Interception"): what the server's answer to a replayed entry makes of the entry, and what the
 * worker itself answers a page when it neither sends nor keeps a change. Nothing here touches
 * storage, the network or the clock, so each row is tested on its own.
 */

/**
 * What happens to a replayed entry, and whether its user's replay goes on to the next entry
 * (`next`) or stops for this pass (`stop`), which keeps a user's changes in order.
 */
export type ReplayOutcome =
  /** Deleted; pages refetch what it changed. */
  | { entry: 'remove'; replay: 'next' }
  /** Held with the user's other waiting entries until the same user's next session. */
  | { entry: 'hold'; replay: 'stop' }
  /** Pending again after a back-off of at least `atLeastMs` when the server asked for it. */
  | { entry: 'retry'; atLeastMs: number | null; replay: 'stop' }
  /**
   * Waits for the user to discard it or apply it on the current version, which comes with the
   * answer (412: body and ETag) or is read from the entry's resource path (409).
   */
  | { entry: 'conflict'; current: 'from-answer' | 'from-resource'; replay: 'next' }
  /** Waits for the user to edit and retry or discard it, with `message`, or the server's own when null. */
  | { entry: 'failed'; message: string | null; replay: 'next' };

export const GONE_MESSAGE = 'The object this change was made to no longer exists.';

/** The server's answer as the table needs it; `null` when none came (no network). */
export interface ServerAnswer {
  status: number;
  /** The `Retry-After` header. */
  retryAfter: string | null;
}

/** The row of the replay table for an answer. `now` (epoch milliseconds) reads a dated Retry-After. */
export function replayOutcome(answer: null, now: number): Extract<ReplayOutcome, { entry: 'retry' }>;
export function replayOutcome(answer: ServerAnswer | null, now: number): ReplayOutcome;
export function replayOutcome(answer: ServerAnswer | null, now: number): ReplayOutcome {
  if (answer === null) return { entry: 'retry', atLeastMs: null, replay: 'stop' };
  const { status, retryAfter } = answer;
  if (status >= 200 && status < 300) return { entry: 'remove', replay: 'next' };
  if (status === 401) return { entry: 'hold', replay: 'stop' };
  // 409 with Retry-After: the server is still working on the first request with this key.
  if (status >= 500 || (status === 409 && retryAfter !== null)) {
    return { entry: 'retry', atLeastMs: retryAfterDelay(retryAfter, now), replay: 'stop' };
  }
  if (status === 412) return { entry: 'conflict', current: 'from-answer', replay: 'next' };
  if (status === 409) return { entry: 'conflict', current: 'from-resource', replay: 'next' };
  if (status === 404) return { entry: 'failed', message: GONE_MESSAGE, replay: 'next' };
  // Any other status, 4xx or one a server should not send (1xx, 3xx): the user decides.
  return { entry: 'failed', message: null, replay: 'next' };
}

/** The server's `error.message` from a parsed error body, or a sentence naming the status. */
export function refusalMessage(status: number, body: unknown): string {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === 'string' && error.message !== ''
    ? error.message
    : `The server refused this change (HTTP ${status}).`;
}

/** A 412's current version: the body's `current` and the ETag, when the answer has either. */
export function currentFromAnswer(
  body: unknown,
  etag: string | null,
): { value: unknown; etag: string | null } | null {
  const value = (body as { current?: unknown } | null)?.current;
  return value !== undefined || etag !== null ? { value: value ?? null, etag } : null;
}

/**
 * The worker's own answers to a page, each with the error body of the API
 * (`{ error: { status, message } }`). Nothing is stored in any of these cases.
 */
export const WORKER_REFUSALS = {
  /** The change does not say whose it is (`X-Outbox-Owner` missing). */
  noOwner: { status: 400, message: 'The change does not name the user it is made for.' },
  /** The page's token belongs to another user than the change's owner. */
  otherUser: { status: 403, message: 'This change was made for another user than the one signed in.' },
  /** The owner has no live storage key, so the change could not be sealed. */
  signInAgain: { status: 401, message: 'Sign in again to keep changes offline.' },
  /** The browser refused to store the entry (`QuotaExceededError`). */
  noRoom: {
    status: OUTBOX_QUOTA_STATUS,
    message:
      'The browser has no room left to keep this change offline, so it was not saved. Free some storage or reconnect, then make the change again.',
  },
  /** Anything unexpected in the worker. */
  workerFailure: { status: 503, message: 'The change could not be sent or kept offline.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type WorkerRefusal = keyof typeof WORKER_REFUSALS;
