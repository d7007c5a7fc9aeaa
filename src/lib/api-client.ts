import { t } from '@lingui/core/macro';
import * as v from 'valibot';
import { OUTBOX_HEADERS, OUTBOX_QUOTA_STATUS, queuedResponseSchema } from '../../contract/outbox.ts';
import { apiErrorSchema } from '../../contract/schemas/common.ts';
import { getAccessToken } from './access-token.ts';

/** What an error answer says beyond its status and message (see `ApiErrorBody`). */
export interface ApiErrorDetails {
  /** Seconds from a `Retry-After` header, when the server throttled the call. */
  retryAfterSeconds?: number | null;
  /** Dot path of the request value at fault, such as `service_period.to`. */
  field?: string;
  /** The stable code of the failure, for the console to act on instead of the English message. */
  code?: string;
}

/** A non-success answer of the platform API: `error.status`, `error.message`, and `field`/`code` when sent. */
export class ApiError extends Error {
  readonly status: number;
  readonly retryAfterSeconds: number | null;
  readonly field: string | null;
  readonly code: string | null;

  constructor(status: number, message: string, details: ApiErrorDetails = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
    this.field = details.field ?? null;
    this.code = details.code ?? null;
  }
}

/** The answer did not have the shape the contract promises; shown like a server failure. */
export class UnexpectedResponseError extends ApiError {
  constructor(path: string) {
    super(502, `Unexpected response from ${path}.`);
    this.name = 'UnexpectedResponseError';
  }
}

/** Asked for data while offline that was never loaded before: nothing to show, and no waiting either. */
export class OfflineError extends Error {
  constructor() {
    super(t`This is not available offline. Open it again once you are connected.`);
    this.name = 'OfflineError';
  }
}

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

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Called when a request that carried the access token gets 401: the session is over (S-15). Requests
 * without a token (sign-in, refresh) report their 401 to the caller instead.
 */
export function onUnauthorized(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  /** The account the change belongs to, for the outbox view. */
  accountId: string | null;
  /** What the change does, in the user's words ("Edit organization Acme"). */
  summary: string;
  /** The API path whose GET answers the object's current version, for conflicts. */
  resource: string;
}

/** The answer of the service worker when it kept the change for later instead of sending it. */
export interface QueuedResult {
  queued: true;
  outboxId: string;
}

export function isQueued(result: unknown): result is QueuedResult {
  return typeof result === 'object' && result !== null && (result as { queued?: unknown }).queued === true;
}

/** The key of one user action: made once when the user acts, reused by every retry of it. */
export { newIdempotencyKey } from '../../contract/outbox.ts';

let outboxOwner: string | null = null;

/**
 * The user whose changes the service worker can keep in this page: set once a live storage key of
 * theirs exists, cleared when it goes. Without it a queueable change is sent as a plain one (with its
 * Idempotency-Key and If-Match): the worker refuses to take changes it could not seal.
 */
export function setOutboxOwner(userId: string | null): void {
  outboxOwner = userId;
}
export type QueryValue = string | number | boolean | null | undefined;

interface FetchOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** `false` when a 401 is expected and handled by the caller (sign-out of an expired session). */
  sessionCheck?: boolean;
  /** What the caller reads from the answer: JSON unless it downloads a file. */
  accept?: string;
  /**
   * The row version (ETag) a change was made on, sent as `If-Match: "3"`: the server refuses with
   * 412 when someone changed the record meanwhile, instead of silently overwriting their change.
   */
  ifMatch?: number;
  /** Marks the change queueable: the worker keeps it offline and answers `{ queued: true }` instead. */
  queue?: QueueOptions;
}

interface RequestOptions<TSchema extends v.GenericSchema | undefined> extends Omit<FetchOptions, 'accept'> {
  /** Validates the answer; without it the body is ignored (204 and fire-and-forget calls). */
  schema?: TSchema;
}

type ResultOf<TSchema> = TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined;

function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const encoded = params.toString();
  return encoded ? `${path}?${encoded}` : path;
}

function retryAfterSeconds(response: Response): number | null {
  const header = response.headers.get('Retry-After');
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

async function errorFrom(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = v.safeParse(apiErrorSchema, body);
  const error = parsed.success ? parsed.output.error : null;
  return new ApiError(response.status, error?.message ?? response.statusText, {
    retryAfterSeconds: retryAfterSeconds(response),
    field: error?.field,
    code: error?.code,
  });
}

/**
 * The successful response of one call to the platform API, before its body is read: the bearer token
 * from memory, errors as `ApiError`, a 401 on a call that carried the token ends the session.
 * Same-origin only, so the refresh cookie rides along where the server scoped it.
 */
export async function apiFetch(method: Method, path: string, options: FetchOptions = {}): Promise<Response> {
  const token = getAccessToken();
  const headers = new Headers({ Accept: options.accept ?? 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (options.ifMatch !== undefined) headers.set(OUTBOX_HEADERS.ifMatch, `"${options.ifMatch}"`);
  if (options.queue) headers.set(OUTBOX_HEADERS.idempotencyKey, options.queue.idempotencyKey);
  const queue = options.queue?.owner === outboxOwner ? options.queue : undefined;
  if (queue) {
    headers.set(OUTBOX_HEADERS.owner, queue.owner);
    if (queue.accountId) headers.set(OUTBOX_HEADERS.account, queue.accountId);
    headers.set(OUTBOX_HEADERS.summary, encodeURIComponent(queue.summary));
    headers.set(OUTBOX_HEADERS.resource, queue.resource);
  }
  const hasBody = method === 'POST' || method === 'PUT';
  if (hasBody) headers.set('Content-Type', 'application/json');

  const response = await fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: hasBody ? JSON.stringify(options.body ?? {}) : undefined,
    signal: options.signal,
  });

  if (queue && response.status === OUTBOX_QUOTA_STATUS) throw new StorageFullError();
  if (!response.ok) {
    const error = await errorFrom(response);
    if (response.status === 401 && token && options.sessionCheck !== false) unauthorizedHandler?.();
    throw error;
  }
  return response;
}

/** The worker's `202 { queued, outboxId }`, or `null` for any other answer (the server's own). */
async function queuedAnswer(response: Response): Promise<QueuedResult | null> {
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
 * A change declared queueable (`options.queue`): the server's answer, checked like `apiRequest`'s, or
 * `{ queued: true, outboxId }` when the service worker kept it for later. A full storage is a
 * `StorageFullError`: the change was kept nowhere.
 */
export async function apiQueueableRequest<TSchema extends v.GenericSchema | undefined = undefined>(
  method: Exclude<Method, 'GET'>,
  path: string,
  options: RequestOptions<TSchema> & { queue: QueueOptions },
): Promise<ResultOf<TSchema> | QueuedResult> {
  const response = await apiFetch(method, path, options);
  const queued = await queuedAnswer(response);
  if (queued) return queued;
  if (!options.schema) return undefined as ResultOf<TSchema>;
  const parsed = v.safeParse(options.schema, await response.json().catch(() => null));
  if (!parsed.success) throw new UnexpectedResponseError(path);
  return parsed.output as ResultOf<TSchema>;
}

/** One call to the platform API with JSON both ways, its answer checked against the contract. */
export async function apiRequest<TSchema extends v.GenericSchema | undefined = undefined>(
  method: Method,
  path: string,
  options: RequestOptions<TSchema> = {},
): Promise<ResultOf<TSchema>> {
  const response = await apiFetch(method, path, options);
  if (!options.schema) return undefined as ResultOf<TSchema>;
  const parsed = v.safeParse(options.schema, await response.json().catch(() => null));
  if (!parsed.success) throw new UnexpectedResponseError(path);
  return parsed.output as ResultOf<TSchema>;
}
