import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isApiPath } from '../../contract/paths.ts';
import type { ApiErrorBody, ApiErrorCode } from '../../contract/schemas/common.ts';

const INTERNAL_ERROR_MESSAGE = 'Internal server error.';

/** What an error answer says beside its message: the request value at fault and a stable code. */
export interface ErrorDetail {
  /** Dot path of a body, query or path value (`service_period.to`), or a header's name (`If-Match`). */
  field?: string;
  code?: ApiErrorCode;
}

/**
 * The code of a status that means one thing whatever the route, so no thrower has to repeat it. A
 * 400 has no default: each one names the field and the rule it broke; 409 is `inUse` where a value
 * is taken, which the thrower says.
 */
const CODE_OF_STATUS: Partial<Record<number, ApiErrorCode>> = {
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  412: 'preconditionFailed',
  413: 'tooLarge',
  415: 'unsupportedMediaType',
  428: 'preconditionRequired',
  429: 'throttled',
};

/** The `error` member of every error answer: `{ status, message, field?, code? }`. */
export function errorBody(status: number, message: string, detail: ErrorDetail = {}): ApiErrorBody['error'] {
  const code = detail.code ?? CODE_OF_STATUS[status];
  return {
    status,
    message,
    ...(detail.field === undefined ? {} : { field: detail.field }),
    ...(code === undefined ? {} : { code }),
  };
}

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  detail: ErrorDetail = {},
): Response {
  const body: ApiErrorBody = { error: errorBody(status, message, detail) };
  return c.json(body, status);
}

/** An expected failure with a message meant for the caller; thrown anywhere below a route. */
export class ApiError extends HTTPException {
  readonly detail: ErrorDetail;

  constructor(status: ContentfulStatusCode, message: string, detail: ErrorDetail = {}) {
    super(status, { message });
    this.name = 'ApiError';
    this.detail = detail;
  }

  /** The answer: `{ error: { status, message, field?, code? } }`; a subclass may add to it. */
  toResponse(c: Context): Response {
    return errorResponse(c, this.status, this.message || 'Request failed.', this.detail);
  }
}

/**
 * Turns every thrown error into `{ error: { status, message, field?, code? } }`. Unexpected ones are
 * logged with the method and path (a parameterised route's pattern) only: request bodies, headers and query strings can carry
 * passwords, tokens and licence texts, so none of them is written to the log.
 */
export const onError: ErrorHandler = (error, c) => {
  if (error instanceof HTTPException && error.status < 500) {
    // Hono's own exceptions carry a prepared response (for example 401 with WWW-Authenticate).
    if (error instanceof ApiError) return error.toResponse(c);
    if (error.res) return error.getResponse();
    return errorResponse(c, error.status, error.message || 'Request failed.');
  }
  // A parameterised route is logged by its pattern: a parameter may be a secret (an enrollment's code).
  const where = c.req.routePath.includes(':') ? c.req.routePath : c.req.path;
  console.error(`${c.req.method} ${where} failed:`, error);
  return errorResponse(c, 500, INTERNAL_ERROR_MESSAGE);
};

export const notFound: NotFoundHandler = (c) =>
  isApiPath(c.req.path)
    ? errorResponse(c, 404, 'Not found.')
    : c.text('Not found.', 404, { 'Cache-Control': 'no-store' });
