import * as v from 'valibot';
import { OUTBOX_HEADERS, type OutboxMethod } from '../../contract/outbox.ts';
import { isApiPath } from '../../contract/paths.ts';

/**
 * The sealed part of an outbox record: the request as it will be sent again, and what the server
 * last answered. The bearer token and the `X-Outbox-*` headers are never part of it.
 */
export interface OutboxContent {
  method: OutboxMethod;
  /** Same-origin path with its query. */
  url: string;
  /** Only the headers of `STORED_HEADERS`, under those names. */
  headers: Record<string, string>;
  /** The body text; `null` when the request had none. */
  body: string | null;
  summary: string;
  accountId: string | null;
  /** `X-Outbox-Resource`: the path whose GET answers the object's current version after a 409. */
  resource: string | null;
  /**
   * `X-Outbox-Base`: the object's fields as the page showed them when the user acted; `null` when the
   * page sent none (an entry of an earlier build) or one that is not JSON. Such an entry is never
   * moved onto another change's version.
   */
  base: unknown;
  error: { status: number; message: string } | null;
  current: { value: unknown; etag: string | null } | null;
}

/** What is kept of the page's headers, besides the body: nothing that identifies the session. */
export const STORED_HEADERS = [
  'Content-Type',
  'Accept',
  OUTBOX_HEADERS.idempotencyKey,
  OUTBOX_HEADERS.ifMatch,
];

const QUEUEABLE_METHODS: ReadonlySet<string> = new Set<OutboxMethod>(['POST', 'PUT', 'DELETE']);

/** The request's method, path and body can be queued: same origin, API path, marked by the page. */
export function isQueueable(request: Request, origin: string): boolean {
  const url = new URL(request.url);
  return (
    url.origin === origin &&
    isApiPath(url.pathname) &&
    QUEUEABLE_METHODS.has(request.method) &&
    request.headers.has(OUTBOX_HEADERS.idempotencyKey) &&
    request.headers.has(OUTBOX_HEADERS.summary)
  );
}

const nullableString = v.nullable(v.string());

/** Checked after decryption: a record of another layout is treated as unreadable, never half-used. */
export const outboxContentSchema = v.object({
  method: v.picklist(['POST', 'PUT', 'DELETE']),
  url: v.pipe(v.string(), v.startsWith('/')),
  headers: v.record(v.string(), v.string()),
  body: nullableString,
  summary: v.string(),
  accountId: nullableString,
  resource: nullableString,
  // Entries sealed by an earlier build have no base: they read as made on no known screen.
  base: v.optional(v.unknown(), null),
  error: v.nullable(v.object({ status: v.number(), message: v.string() })),
  current: v.nullable(v.object({ value: v.unknown(), etag: nullableString })),
});

export function storedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}

/** The page's headers as the server should get them: everything but the worker's own `X-Outbox-*`. */
export function forwardedHeaders(headers: Headers): Headers {
  const forwarded = new Headers(headers);
  for (const name of [...forwarded.keys()]) {
    if (name.toLowerCase().startsWith('x-outbox-')) forwarded.delete(name);
  }
  return forwarded;
}

/** The summary header is URI-encoded so it can carry any language; a malformed one is kept as sent. */
export function decodeSummary(header: string | null): string {
  if (header === null) return '';
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** The base header is URI-encoded JSON; a malformed one counts as no base, never as a guess. */
export function decodeBase(header: string | null): unknown {
  if (header === null) return null;
  try {
    return JSON.parse(decodeURIComponent(header));
  } catch {
    return null;
  }
}

/** Whether two JSON values are the same, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  return (
    aKeys.length === Object.keys(b).length &&
    aKeys.every(
      (key) => Object.hasOwn(bRecord, key) && sameJson((a as Record<string, unknown>)[key], bRecord[key]),
    )
  );
}

/** The body as pages see it: parsed JSON, the text itself when it is not JSON, null when absent. */
export function parsedBody(body: string | null): unknown {
  if (body === null) return null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
