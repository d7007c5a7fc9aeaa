import type { Context } from 'hono';
import type { PreconditionFailedBody } from '../../contract/schemas/common.ts';
import { ApiError, errorBody } from './errors.ts';

const IF_MATCH = 'If-Match';

/**
 * Row versions as HTTP entity tags (RFC 9110 §8.8.3) and the If-Match precondition (§13.1.1), for
 * every editable resource: the ETag is the quoted version. The edits the console may queue offline
 * (an account, an organization, a contact) require If-Match and answer 428 without it (RFC 6585 §3),
 * so a change replayed hours later can never overwrite one it did not see; the other edits honour
 * If-Match when it is sent. A version that is no longer current answers 412 with the current
 * representation beside the error, so a client can show the server's value next to its change.
 */
export function entityTag(version: number | string): string {
  return `"${version}"`;
}

/** `*`, or a comma-separated list of strong or weak entity tags. */
const IF_MATCH_SYNTAX = /^\s*(?:\*|(?:W\/)?"[^"]*"(?:\s*,\s*(?:W\/)?"[^"]*")*)\s*$/;

/** Whether an If-Match header is `*` or a list of entity tags; absent counts as well formed. */
export function isWellFormedIfMatch(header: string | undefined): boolean {
  return header === undefined || IF_MATCH_SYNTAX.test(header);
}

/**
 * Whether a change on `version` may proceed: no header, `*`, or the current tag listed. The
 * comparison is strong, as If-Match requires, so a weak tag never matches.
 */
export function ifMatchAdmits(header: string | undefined, version: number | string): boolean {
  if (header === undefined) return true;
  const current = entityTag(version);
  return header.split(',').some((tag) => tag.trim() === '*' || tag.trim() === current);
}

/** 400 for an If-Match that is neither `*` nor a list of entity tags; `example` names one. */
export function assertWellFormedIfMatch(header: string | undefined, example: string): void {
  if (!isWellFormedIfMatch(header)) {
    throw new ApiError(400, `If-Match: must be the ETag of the ${example}, such as "3".`, {
      field: IF_MATCH,
      code: 'invalidValue',
    });
  }
}

/** 428 for an edit that requires If-Match and came without it; `subject` names the object. */
export function assertIfMatchPresent(header: string | undefined, subject: string): void {
  if (header === undefined) {
    throw new ApiError(
      428,
      `If-Match is required: send the ETag of the ${subject} as it was read, such as "3", so a change made on an older version is refused instead of overwriting a newer one.`,
      { field: IF_MATCH },
    );
  }
}

/**
 * 412 with the object as its GET answers it and its current ETag, so the caller can compare its
 * change with what is stored now.
 */
export class PreconditionFailed extends ApiError {
  readonly current: unknown;
  readonly etag: string;

  constructor(message: string, current: unknown, etag: string) {
    super(412, message);
    this.name = 'PreconditionFailed';
    this.current = current;
    this.etag = etag;
  }

  override toResponse(c: Context): Response {
    const body: PreconditionFailedBody = {
      error: errorBody(412, this.message, { field: IF_MATCH }),
      current: this.current,
    };
    c.header('ETag', this.etag);
    return c.json(body, 412);
  }
}
