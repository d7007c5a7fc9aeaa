import { apiQueueableRequest } from './queueable-request.ts';

/** What every change of an existing object sends besides its fields. */
export interface Versioned {
  /** The version (ETag) of the object as the screen loaded it. */
  version: number;
  /** Made when the user acted (`newIdempotencyKey`), the same for every retry of that action. */
  idempotencyKey: string;
}

/** Who a queued change belongs to and how the outbox names it. */
export interface ChangeTarget {
  /** The signed-in user, whose session alone may send it. */
  owner: string;
  accountId: string;
  /** What the change does, in the user's words. */
  summary: string;
}

/**
 * Sends a change of an existing object (docs/decisions/013): the version the screen loaded as
 * If-Match, queueable for the user in the object's account, with the object's own path as where its
 * current version is read when the change conflicts.
 */
export function sendVersionedChange(
  method: 'PUT' | 'DELETE',
  path: string,
  { version, idempotencyKey, body }: Versioned & { body?: unknown },
  target: ChangeTarget,
) {
  return apiQueueableRequest(method, path, {
    body,
    ifMatch: version,
    queue: { idempotencyKey, ...target, resource: path },
  });
}
