import { apiQueueableRequest, type QueueOptions } from './queueable-request.ts';

/** What every change of an existing object sends besides its fields; `TFields` is the shape of its edit's body. */
export interface Versioned<TFields> {
  /** The version (ETag) of the object as the screen loaded it. */
  version: number;
  /**
   * The object's fields as the screen showed them when the user acted, in the shape of an edit's
   * body. Queued behind another change of the object, this change is sent on that change's version
   * only if this equals what that change set; otherwise it conflicts rather than undo it.
   */
  base: TFields;
  /** Made when the user acted (`newIdempotencyKey`), the same for every retry of that action. */
  idempotencyKey: string;
}

/** Who a queued change belongs to and how the outbox names it. */
export interface ChangeTarget {
  /** The signed-in user, whose session alone may send it. */
  owner: string;
  outbox: QueueOptions['outbox'];
  accountId: string;
  /** What the change does, in the user's words. */
  summary: string;
}

/**
 * Sends a change of an existing object (docs/decisions/013): the version the screen loaded as
 * If-Match and the fields it showed as the base, queueable for the user in the object's account, with the object's own path as where its
 * current version is read when the change conflicts.
 */
export function sendVersionedChange(
  method: 'PUT' | 'DELETE',
  path: string,
  { version, base, idempotencyKey, body }: Versioned<unknown> & { body?: unknown },
  target: ChangeTarget,
) {
  return apiQueueableRequest(method, path, {
    body,
    ifMatch: version,
    queue: { idempotencyKey, ...target, resource: path, base },
  });
}
