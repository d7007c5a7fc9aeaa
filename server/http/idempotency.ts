import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths, isApiPath, UI_API_V1 } from '../../contract/paths.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import type { AppEnv } from './app-env.ts';
import { errorResponse } from './errors.ts';

/**
 * The Idempotency-Key request header (draft-ietf-httpapi-idempotency-key-header-07) on every
 * mutating API request, so that a change the console's outbox sends again after a lost answer is
 * made once (docs/decisions/014-idempotency-and-preconditions.md):
 *
 * - The key is a Structured Field string of 1 to 255 characters; without the header a request runs
 *   as it always did. Keys belong to the caller: the user of a valid bearer token of a live session,
 *   else an anonymous scope (setup), so two users' equal keys never meet.
 * - The first request with a key claims it with an in-progress record (one insert on the unique
 *   scope and key, so every server process on one PostgreSQL database agrees on who was first);
 *   once the route has answered, its status, Content-Type, ETag, Location and body are stored and
 *   every later request with that key gets exactly that, marked `Idempotency-Replayed: true`.
 * - A key sent again with another method, path, query, body or If-Match answers 422. While the first
 *   request runs, another answers 409 with `Retry-After: 1`; a record left in progress longer than the
 *   lease (its process died) answers 409 without Retry-After: the outcome is unknown.
 * - 401, 403 and 429 depend on the caller's state at that moment and 5xx means the change rolled
 *   back: none is stored, the record is removed and a later attempt runs.
 * - Records live 24 hours; older ones count as absent and are purged at most once a minute.
 *
 * Request and response bodies are never logged.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Marks an answer that was stored for an earlier request with the same key. */
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a request may hold its key in progress before its outcome is called unknown. */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 1000;

/** The scope of a request without a valid bearer token (the setup endpoints). */
export const ANONYMOUS_SCOPE = 'anonymous';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const CREDENTIAL_PATHS: ReadonlySet<string> = new Set([apiPaths.identity.login, apiPaths.identity.refresh]);
/**
 * An API token's creation (`user/<id>/api-tokens`, `service-user/<id>/api-tokens`) and a service
 * user's, whose answer holds its first token.
 */
const API_TOKEN_CREATION_PATH = new RegExp(
  `^${UI_API_V1}/(?:(?:user|service-user)/[^/]+/api-tokens|service-user)$`,
);

/**
 * Whether the Idempotency-Key of a mutating request to `path` is ignored: the answers of sign-in,
 * refresh and an API token's creation (alone or with its service user) carry credentials (an access
 * token, a refresh token and its cookie, an API token). Storing them would put live secrets in the database, and a replay would hand
 * them to anyone holding the key. Each is safe to repeat anyway: a second sign-in is another session,
 * a second refresh of the same token is refused as reuse, and a second creation is another token
 * (or 409 for its name) that its user can see in the list and revoke.
 */
export function isIdempotencyExempt(path: string): boolean {
  return CREDENTIAL_PATHS.has(path) || API_TOKEN_CREATION_PATH.test(path);
}

/** Answers that depend on who the caller is at that moment, stored for no one. */
const UNSTORED_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/** Response headers a replay repeats; security and caching headers are added afresh every time. */
const STORED_HEADERS = ['content-type', 'etag', 'location'] as const;

const MALFORMED_KEY = `${IDEMPOTENCY_KEY_HEADER}: must be a quoted string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, such as "8e03978e-40d5-43e8-bc93-6894a57f9324".`;
const UNREADABLE_BODY = 'Request body could not be read.';
const DIFFERENT_REQUEST = `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request; send a new key for a new request.`;
const STILL_PROCESSING = `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; try again shortly.`;
const OUTCOME_UNKNOWN = `The outcome of the earlier request with this ${IDEMPOTENCY_KEY_HEADER} is unknown: it did not finish. Check the object before applying the change again, with a new key.`;

// RFC 8941 §3.3: sf-string, and the bare items a parameter may carry (ignored, none is defined).
const SF_STRING = String.raw`"(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*"`;
const SF_BARE_ITEM = String.raw`(?:-?\d{1,15}(?:\.\d{1,3})?|${SF_STRING}|[A-Za-z*][!#$%&'*+\-.^_\x60|~:/0-9A-Za-z]*|:[A-Za-z0-9+/=]*:|\?[01])`;
const SF_PARAMETERS = `(?:; *[a-z*][a-z0-9_.*-]*(?:=${SF_BARE_ITEM})?)*`;
const SF_STRING_ITEM = new RegExp(`^ *(${SF_STRING})${SF_PARAMETERS} *$`);

/** The key of an Idempotency-Key header value, or null when it is not a string item of 1–255 characters. */
export function parseIdempotencyKey(header: string): string | null {
  const quoted = SF_STRING_ITEM.exec(header)?.[1];
  if (quoted === undefined) return null;
  const key = quoted.slice(1, -1).replace(/\\(["\\])/g, '$1');
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH ? key : null;
}

/**
 * SHA-256 of what makes two requests the same: method, path with query, If-Match and the body bytes.
 * If-Match counts: a change re-applied on a newer version is a new request, never the replay of the
 * 412 the older one got.
 */
export function requestFingerprint(
  method: string,
  pathWithQuery: string,
  ifMatch: string | undefined,
  body: Uint8Array,
): string {
  // Neither a method, a request target nor a header value holds a line feed.
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${pathWithQuery}\n${ifMatch ?? ''}\n`)
    .update(body)
    .digest('hex');
}

/**
 * The caller behind the request's Authorization header, as the authentication middleware works it
 * out (`server/identity/authenticate.ts`), given by the app: HTTP sits below identity.
 */
export type CallerOf = (c: Context<AppEnv>) => Promise<Principal | null>;

/**
 * `user:<id>` for a valid bearer token of a live session, checked by the code the authentication
 * middleware runs: a token whose session ended never gets a stored answer replayed.
 */
async function callerScope(callerOf: CallerOf, c: Context<AppEnv>): Promise<string> {
  const principal = await callerOf(c);
  return principal === null ? ANONYMOUS_SCOPE : `user:${principal.userId}`;
}

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
}

type Claim =
  | { kind: 'claimed' }
  | { kind: 'completed'; response: StoredResponse }
  | { kind: 'different-request' }
  | { kind: 'in-progress'; stale: boolean };

/** How many times a key that vanished between the insert and the read is tried again. */
const CLAIM_ATTEMPTS = 3;

/**
 * Claims the key for this request, or says what became of the request that claimed it first. The
 * insert is the one decision: of any number of processes, exactly one inserts the row.
 */
async function claimKey(
  db: Kysely<Database>,
  record: { scope: string; key: string; fingerprint: string },
  now: Date,
): Promise<Claim> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    // An expired record counts as absent: it makes room for this request.
    await db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', record.scope)
      .where('key', '=', record.key)
      .where('created_at', '<=', expired)
      .execute();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ ...record, created_at: now })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed' };

    const row = await db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'created_at', 'response_status', 'response_headers', 'response_body'])
      .where('scope', '=', record.scope)
      .where('key', '=', record.key)
      .where('created_at', '>', expired)
      .executeTakeFirst();
    // Released meanwhile (the first request failed) or expired: claim it again.
    if (!row) continue;
    if (row.fingerprint !== record.fingerprint) return { kind: 'different-request' };
    if (row.response_status === null) {
      return { kind: 'in-progress', stale: now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_LEASE_MS };
    }
    return {
      kind: 'completed',
      response: {
        status: row.response_status,
        headers: row.response_headers ?? {},
        body: new Uint8Array(row.response_body ?? []),
      },
    };
  }
  return { kind: 'in-progress', stale: false };
}

/** A stored answer again, exactly as it was, marked as a replay. */
function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  const bodyless = stored.status === 204 || stored.status === 205 || stored.status === 304;
  return new Response(bodyless || stored.body.length === 0 ? null : stored.body, {
    status: stored.status,
    headers,
  });
}

async function responseToStore(response: Response): Promise<StoredResponse> {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  // A clone, so the original body still goes to the caller.
  const body = new Uint8Array(await response.clone().arrayBuffer());
  return { status: response.status, headers, body };
}

/** The Idempotency-Key middleware of the API; see the module comment. */
export function idempotencyKeys(deps: AppDeps, callerOf: CallerOf): MiddlewareHandler<AppEnv> {
  const { db } = deps;
  let lastPurge = Number.NEGATIVE_INFINITY;

  /** Removes expired records, at most once a minute per process; a failure only waits for the next turn. */
  async function purgeExpired(now: Date): Promise<void> {
    if (now.getTime() - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now.getTime();
    try {
      await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<=', new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS))
        .execute();
    } catch (error) {
      console.error('Purging expired idempotency keys failed:', error);
    }
  }

  return async (c, next) => {
    const path = c.req.path;
    if (!MUTATING_METHODS.has(c.req.method) || !isApiPath(path) || isIdempotencyExempt(path)) return next();
    const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
    if (header === undefined) return next();
    const key = parseIdempotencyKey(header);
    if (key === null) {
      return errorResponse(c, 400, MALFORMED_KEY, { field: IDEMPOTENCY_KEY_HEADER, code: 'invalidValue' });
    }

    let body: Uint8Array;
    try {
      // Cached by the request: the route's own `c.req.json()` reads the same bytes again.
      body = new Uint8Array(await c.req.arrayBuffer());
    } catch {
      return errorResponse(c, 400, UNREADABLE_BODY, { code: 'malformed' });
    }
    const url = new URL(c.req.url);
    const fingerprint = requestFingerprint(
      c.req.method,
      `${url.pathname}${url.search}`,
      c.req.header('If-Match'),
      body,
    );
    const scope = await callerScope(callerOf, c);
    const now = deps.now();
    await purgeExpired(now);

    const claim = await claimKey(db, { scope, key, fingerprint }, now);
    switch (claim.kind) {
      case 'different-request':
        // The key is taken by another request: `inUse`, as a taken user name is.
        return errorResponse(c, 422, DIFFERENT_REQUEST, { field: IDEMPOTENCY_KEY_HEADER, code: 'inUse' });
      case 'in-progress':
        if (claim.stale) return errorResponse(c, 409, OUTCOME_UNKNOWN, { field: IDEMPOTENCY_KEY_HEADER });
        c.header('Retry-After', '1');
        return errorResponse(c, 409, STILL_PROCESSING, { field: IDEMPOTENCY_KEY_HEADER });
      case 'completed':
        return replay(claim.response);
      case 'claimed':
        break;
    }

    /** Frees the key, so a later attempt runs the request again. */
    const release = async () => {
      try {
        await db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where('response_status', 'is', null)
          .execute();
      } catch (error) {
        // The record stays in progress and answers "outcome unknown" once the lease has passed.
        console.error(`${c.req.method} ${path}: releasing its idempotency key failed:`, error);
      }
    };

    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }

    const status = c.res.status;
    if (status >= 500 || UNSTORED_STATUSES.has(status)) {
      await release();
      return;
    }
    // Written after the change committed, never with it: a process that dies in between leaves the
    // record in progress, and the lease then says the outcome is unknown rather than guessing.
    try {
      const stored = await responseToStore(c.res);
      await db
        .updateTable('idempotency_keys')
        .set({
          response_status: stored.status,
          response_headers: JSON.stringify(stored.headers),
          response_body: Buffer.from(stored.body),
          completed_at: deps.now(),
        })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('response_status', 'is', null)
        .execute();
    } catch (error) {
      // The change is made: the caller still gets its answer; a retry will hear "outcome unknown".
      console.error(`${c.req.method} ${path}: storing its idempotent response failed:`, error);
    }
  };
}
