import { t } from '@lingui/core/macro';
import * as v from 'valibot';
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

interface UnauthorizedHandlers {
  /** Asks the refresh cookie for a new access token; true when one arrived. */
  renew(): Promise<boolean>;
  /** The session is over (S-15). */
  lost(): void;
}
let unauthorizedHandlers: UnauthorizedHandlers | null = null;

/**
 * What a 401 on a request that carried the access token does. The token may have expired between
 * the request leaving and the planned renewal (B-22 renews at the expiry time itself), so the session
 * is first renewed and the request sent once more with the new token; only when no token comes back
 * is the session over. A 401 means the server refused the caller before acting, so sending again
 * never repeats a change. Requests without a token (sign-in, refresh) report their 401 to the caller.
 */
export function onUnauthorized(handlers: UnauthorizedHandlers | null): void {
  unauthorizedHandlers = handlers;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;

export interface FetchOptions {
  body?: unknown;
  /** A body sent as it is, not as JSON: a file's bytes with their media type (`text/csv`). */
  rawBody?: { contentType: string; data: Blob };
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
  /** Headers of the request beyond the ones every call sends (the outbox's, for a queueable change). */
  headers?: Readonly<Record<string, string>>;
}

export interface RequestOptions<TSchema extends v.GenericSchema | undefined>
  extends Omit<FetchOptions, 'accept'> {
  /** Validates the answer; without it the body is ignored (204 and fire-and-forget calls). */
  schema?: TSchema;
}

export type ResultOf<TSchema> = TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined;

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
 * from memory, errors as `ApiError`, a 401 on a call that carried the token renews it or ends the session.
 * Same-origin only, so the refresh cookie rides along where the server scoped it.
 */
export async function apiFetch(method: Method, path: string, options: FetchOptions = {}): Promise<Response> {
  const token = getAccessToken();
  const response = await send(method, path, options, token);
  if (response.ok) return response;
  if (response.status !== 401 || !token || options.sessionCheck === false) throw await errorFrom(response);

  const renewed = (await unauthorizedHandlers?.renew()) === true;
  const newToken = getAccessToken();
  if (renewed && newToken !== null && newToken !== token) {
    const retried = await send(method, path, options, newToken);
    if (retried.ok) return retried;
    if (retried.status !== 401) throw await errorFrom(retried);
    const error = await errorFrom(retried);
    unauthorizedHandlers?.lost();
    throw error;
  }
  const error = await errorFrom(response);
  unauthorizedHandlers?.lost();
  throw error;
}

function send(method: Method, path: string, options: FetchOptions, token: string | null): Promise<Response> {
  const headers = new Headers({ Accept: options.accept ?? 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  // The header by its standard name: the outbox module, which names it too, is not for the sign-in page.
  if (options.ifMatch !== undefined) headers.set('If-Match', `"${options.ifMatch}"`);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const hasBody = method === 'POST' || method === 'PUT';
  const { rawBody } = options;
  if (hasBody) headers.set('Content-Type', rawBody?.contentType ?? 'application/json');
  const body = rawBody === undefined ? JSON.stringify(options.body ?? {}) : rawBody.data;
  return fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: hasBody ? body : undefined,
    signal: options.signal,
  });
}

/** One call to the platform API with JSON both ways, its answer checked against the contract. */
export async function apiRequest<TSchema extends v.GenericSchema | undefined = undefined>(
  method: Method,
  path: string,
  options: RequestOptions<TSchema> = {},
): Promise<ResultOf<TSchema>> {
  return readAnswer(await apiFetch(method, path, options), path, options.schema);
}

/** The body of a successful answer, checked against the contract's schema; none without a schema. */
export async function readAnswer<TSchema extends v.GenericSchema | undefined>(
  response: Response,
  path: string,
  schema: TSchema | undefined,
): Promise<ResultOf<TSchema>> {
  if (!schema) return undefined as ResultOf<TSchema>;
  const parsed = v.safeParse(schema, await response.json().catch(() => null));
  if (!parsed.success) throw new UnexpectedResponseError(path);
  return parsed.output as ResultOf<TSchema>;
}
