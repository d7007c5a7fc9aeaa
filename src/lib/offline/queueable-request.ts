import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import {
  OUTBOX_HEADERS,
  OUTBOX_QUOTA_STATUS,
  type QueuedResponse,
  queuedResponseSchema,
} from '../../../contract/outbox.ts';
import {
  ApiError,
  apiFetch,
  type Method,
  type RequestOptions,
  type ResultOf,
  readAnswer,
} from '../api-client.ts';
import type { Outbox } from './outbox-client.ts';

/**
 * A change the service worker may keep in its outbox when there is no network, and send later under
 * the same user (docs/decisions/013-offline-console.md).
 */
export interface QueueOptions {
  /**
   * A UUID made when the user acted (see `newIdempotencyKey`) and sent again with every retry of that
   * action, so the server applies the change once however often it arrives.
   */
  idempotencyKey: string;
  /** The user the change is made for: it is only ever sent under that user's session. */
  owner: string;
  /** The page's outbox (`useOutbox`), which says whether the worker may keep the owner's changes. */
  outbox: Pick<Outbox, 'keeps'>;
  /** The account the change belongs to, for the outbox view. */
  accountId: string | null;
  /** What the change does, in the user's words ("Edit organization Acme"). */
  summary: string;
  /** The API path whose GET answers the object's current version, for conflicts. */
  resource: string;
  /**
   * A change of an existing object: its fields as the screen showed them (`Versioned.base`). Without
   * it, the change is never moved onto the version an earlier queued change makes.
   */
  base?: unknown;
}

/** The key of one user action: made once when the user acts, reused by every retry of it. */
export { isQueued, newIdempotencyKey } from '../../../contract/outbox.ts';

/**
 * The browser refused to keep a change made offline (its storage is full): the change was not saved
 * anywhere, and the user must know so.
 */
export class StorageFullError extends ApiError {
  constructor() {
    super(
      OUTBOX_QUOTA_STATUS,
      t`The browser's storage is full, so this change was not saved. Free some space or reconnect, then try again.`,
    );
    this.name = 'StorageFullError';
  }
}

/** The worker's `202 { queued, outboxId }`, or `null` for any other answer (the server's own). */
async function queuedAnswer(response: Response): Promise<QueuedResponse | null> {
  if (response.status !== 202) return null;
  const parsed = v.safeParse(
    queuedResponseSchema,
    await response
      .clone()
      .json()
      .catch(() => null),
  );
  return parsed.success ? parsed.output : null;
}

/**
 * Only a service worker keeps changes, and it strips the outbox headers before anything reaches the
 * network. A page it does not control (a hard reload) would send them to the server instead, the
 * base with all the object's fields among them, for nothing: such a page sends plain changes.
 */
function workerControlsPage(): boolean {
  return typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);
}

/**
 * A change declared queueable (`options.queue`): the server's answer, checked like `apiRequest`'s, or
 * `{ queued: true, outboxId }` when the service worker kept it for later. A full storage is a
 * `StorageFullError`: the change was kept nowhere.
 */
export async function apiQueueableRequest<TSchema extends v.GenericSchema | undefined = undefined>(
  method: Exclude<Method, 'GET'>,
  path: string,
  options: RequestOptions<TSchema> & { queue: QueueOptions },
): Promise<ResultOf<TSchema> | QueuedResponse> {
  const { queue, ...request } = options;
  const headers: Record<string, string> = { [OUTBOX_HEADERS.idempotencyKey]: queue.idempotencyKey };
  // Only the user whose changes this page may keep gets them kept; anyone else's is sent as it is.
  const kept = queue.outbox.keeps(queue.owner) && workerControlsPage();
  if (kept) {
    headers[OUTBOX_HEADERS.owner] = queue.owner;
    if (queue.accountId) headers[OUTBOX_HEADERS.account] = queue.accountId;
    headers[OUTBOX_HEADERS.summary] = encodeURIComponent(queue.summary);
    headers[OUTBOX_HEADERS.resource] = queue.resource;
    if (queue.base !== undefined)
      headers[OUTBOX_HEADERS.base] = encodeURIComponent(JSON.stringify(queue.base));
  }
  let response: Response;
  try {
    response = await apiFetch(method, path, { ...request, headers });
  } catch (error) {
    if (kept && error instanceof ApiError && error.status === OUTBOX_QUOTA_STATUS)
      throw new StorageFullError();
    throw error;
  }
  return (await queuedAnswer(response)) ?? readAnswer(response, path, options.schema);
}
