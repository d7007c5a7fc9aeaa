import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isApiPath } from '../../contract/paths.ts';
import type { ApiErrorBody } from '../../contract/schemas/common.ts';

const INTERNAL_ERROR_MESSAGE = 'Internal server error.';

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string): Response {
  const body: ApiErrorBody = { error: { status, message } };
  return c.json(body, status);
}

/** An expected failure with a message meant for the caller; thrown anywhere below a route. */
export class ApiError extends HTTPException {
  constructor(status: ContentfulStatusCode, message: string) {
    super(status, { message });
    this.name = 'ApiError';
  }

  /** The answer: `{ error: { status, message } }`; a subclass may add to it. */
  toResponse(c: Context): Response {
    return errorResponse(c, this.status, this.message || 'Request failed.');
  }
}

/**
 * Turns every thrown error into `{ error: { status, message } }`. Unexpected ones are logged with
 * the method and path only: request bodies, headers and query strings can carry passwords, tokens
 * and licence texts, so none of them is written to the log.
 */
export const onError: ErrorHandler = (error, c) => {
  if (error instanceof HTTPException && error.status < 500) {
    // Hono's own exceptions carry a prepared response (for example 401 with WWW-Authenticate).
    if (error instanceof ApiError) return error.toResponse(c);
    if (error.res) return error.getResponse();
    return errorResponse(c, error.status, error.message || 'Request failed.');
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, error);
  return errorResponse(c, 500, INTERNAL_ERROR_MESSAGE);
};

export const notFound: NotFoundHandler = (c) =>
  isApiPath(c.req.path)
    ? errorResponse(c, 404, 'Not found.')
    : c.text('Not found.', 404, { 'Cache-Control': 'no-store' });
