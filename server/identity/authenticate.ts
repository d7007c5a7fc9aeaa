import type { Context, MiddlewareHandler } from 'hono';
import { decodeJwt } from 'jose';
import type { Kysely } from 'kysely';
import { isPermissionName } from '../../contract/permissions.ts';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX } from '../../contract/schemas/api-tokens.ts';
import type { AppDeps } from '../app-deps.ts';
import { effectivePermissions } from '../authorization/grants.ts';
import { utcDate } from '../dates.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError, errorResponse } from '../http/errors.ts';
import { hashOpaqueToken } from './opaque-tokens.ts';
import type { Credential, Principal } from './principal.ts';
import { principalCacheOf } from './principal-cache.ts';
import { accessScopeOf } from './sessions.ts';
import { type AccessTokenClaims, verifyAccessToken } from './tokens.ts';

const AUTHENTICATION_REQUIRED = 'Authentication required.';

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i);
  return match?.[1] ?? null;
}

function unauthenticated(c: Context): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return errorResponse(c, 401, AUTHENTICATION_REQUIRED);
}

/** A user who may still act, with what they hold: the one select both credentials share. */
function principalQuery(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
    .select((eb) => [
      'users.id',
      'users.user_name',
      'users.access_scope',
      'users.primary_account_id',
      'accounts.active as account_active',
      effectivePermissions(eb.ref('users.id')).as('permissions'),
    ])
    .where('users.active', '=', true);
}

type PrincipalRow = NonNullable<Awaited<ReturnType<ReturnType<typeof principalQuery>['executeTakeFirst']>>>;

/**
 * A user whose primary account is inactive holds no permission (decision 017): signed in, they see who
 * they are and that their account expired, and every call that needs a permission answers 403.
 */
function principalOf(row: PrincipalRow, credential: Credential): Principal {
  return {
    userId: row.id,
    userName: row.user_name,
    accessScope: accessScopeOf(row.access_scope),
    primaryAccountId: row.primary_account_id,
    credential,
    // Roles may hold names a newer version introduced or an older one dropped: only known ones count.
    permissions: new Set(row.account_active ? row.permissions.filter(isPermissionName) : []),
  };
}

/**
 * The caller behind a verified access token, when its session is still alive and its user still
 * active: one query on the session's primary key, its answer remembered briefly (`PrincipalCache`:
 * until anything it was read from changes, the session expires, or two seconds pass), so a logout, a
 * revocation after reuse or a role change takes effect on the next request in this process, and in
 * every other process as soon as the database's notification reaches it.
 */
async function sessionPrincipal(
  db: Kysely<Database>,
  now: Date,
  claims: { userId: string; sessionId: string },
): Promise<Principal | null> {
  const cache = principalCacheOf(db);
  const remembered = cache?.get(claims.sessionId, claims.userId, now);
  if (remembered !== undefined) return remembered;
  const generation = cache?.generation ?? 0;
  const row = await principalQuery(db)
    .innerJoin('sessions', 'sessions.user_id', 'users.id')
    .select('sessions.expires_at as session_expires_at')
    .where('sessions.id', '=', claims.sessionId)
    .where('sessions.user_id', '=', claims.userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    // Service users never sign in; a session of one (none can be made) would still be refused.
    .where('users.kind', '=', 'person')
    .executeTakeFirst();
  if (!row) return null;
  const principal = principalOf(row, { kind: 'session', sessionId: claims.sessionId });
  cache?.remember(claims.sessionId, principal, row.session_expires_at, generation);
  return principal;
}

/**
 * A user as the caller of work done for them outside a request (a bulk job runs for its creator):
 * what they hold now, or null once they are disabled or gone. Acting for them needs no credential.
 */
export async function principalOfUser(db: Kysely<Database>, userId: string): Promise<Principal | null> {
  const row = await principalQuery(db).where('users.id', '=', userId).executeTakeFirst();
  return row ? principalOf(row, { kind: 'session', sessionId: '' }) : null;
}

/** `last_used_at` is written at most this often per token, so busy scripts do not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The user an API token acts as (decision 036): one query on the token's hash, where the token is
 * not revoked, its end date not passed, its user active and, for a service user, the service user's
 * own end date not passed either. Nothing is cached, so a revocation, an expiry, a disabled or
 * deleted user takes effect on the next request in every server process.
 */
async function apiTokenPrincipal(db: Kysely<Database>, now: Date, token: string): Promise<Principal | null> {
  const today = utcDate(now);
  const row = await principalQuery(db)
    .innerJoin('api_tokens', 'api_tokens.user_id', 'users.id')
    .leftJoin('service_users', 'service_users.user_id', 'users.id')
    .select('api_tokens.id as token_id')
    .where('api_tokens.token_hash', '=', hashOpaqueToken(token))
    .where('api_tokens.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('api_tokens.end_date', 'is', null), eb('api_tokens.end_date', '>=', today)]))
    .where((eb) =>
      eb.or([eb('service_users.end_date', 'is', null), eb('service_users.end_date', '>=', today)]),
    )
    .executeTakeFirst();
  if (!row) return null;
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', row.token_id)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<=', new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
      ]),
    )
    .execute();
  return principalOf(row, { kind: 'apiToken', tokenId: row.token_id });
}

/** How many verified access tokens each process remembers; a token takes about half a kilobyte. */
const VERIFIED_TOKENS_KEPT = 5_000;

interface VerifiedToken {
  claims: AccessTokenClaims;
  /** The token's `exp`, seconds since the epoch. */
  expiresAt: number;
}

/** Per database, as the verification keys are: a test process runs several platforms at once. */
const verifiedTokensByDatabase = new WeakMap<Kysely<Database>, Map<string, VerifiedToken>>();

/**
 * The claims of a valid access token, checking its signature once per process. Checking an ES256
 * signature took a tenth of the server's CPU per list request at fifty clients, and the answer for the
 * same token never changes: its bytes are signed, and the key that verified it stays with this process
 * (`verificationKey`). Expiry is checked on every request, to the second as jose checks it. Whether
 * the session is still alive is not remembered here: `sessionPrincipal` asks the database each time.
 */
async function verifiedClaims(deps: AppDeps, token: string): Promise<AccessTokenClaims | null> {
  let verified = verifiedTokensByDatabase.get(deps.db);
  if (!verified) {
    verified = new Map();
    verifiedTokensByDatabase.set(deps.db, verified);
  }
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  const known = verified.get(token);
  if (known !== undefined) {
    if (known.expiresAt > nowSeconds) return known.claims;
    verified.delete(token);
    return null;
  }
  const claims = await verifyAccessToken(deps, token);
  const expiresAt = claims ? decodeJwt(token).exp : undefined;
  if (!claims || expiresAt === undefined) return null;
  // The map keeps insertion order: past its size, the token verified longest ago goes first.
  if (verified.size >= VERIFIED_TOKENS_KEPT) {
    const oldest = verified.keys().next();
    if (!oldest.done) verified.delete(oldest.value);
  }
  verified.set(token, { claims, expiresAt });
  return claims;
}

/**
 * The caller of an Authorization header, or null. A bearer value starting with the API-token prefix is
 * a token, refused before any query unless it has a token's exact form; anything else is a session's
 * access token (a JWT never starts with the prefix: its first segment is base64url JSON, `eyJ…`).
 */
async function authenticatedPrincipal(
  deps: AppDeps,
  authorization: string | undefined,
): Promise<Principal | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  if (token.startsWith(API_TOKEN_PREFIX)) {
    return API_TOKEN_PATTERN.test(token) ? apiTokenPrincipal(deps.db, deps.now(), token) : null;
  }
  const claims = await verifiedClaims(deps, token);
  if (!claims) return null;
  return sessionPrincipal(deps.db, deps.now(), claims);
}

/**
 * The caller of this request, worked out once: the idempotency middleware needs it before the route's
 * authentication does, and a second token check and session query would only repeat the first.
 */
export async function callerOf(deps: AppDeps, c: Context<AppEnv>): Promise<Principal | null> {
  const known = c.get('caller');
  if (known !== undefined) return known;
  const caller = await authenticatedPrincipal(deps, c.req.header('Authorization'));
  c.set('caller', caller);
  return caller;
}

/** Answers 401 unless the request carries a valid access token of a live session or a working API token. */
export function requireAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = await callerOf(deps, c);
    if (!principal) return unauthenticated(c);
    c.set('principal', principal);
    await next();
  };
}

/**
 * The session the caller signed in with, or 403 `sessionRequired` for an API token: what mints or
 * guards credentials (sign-out, the storage secret, passwords, API tokens) is refused to a token, so
 * a leaked one cannot make itself another credential (decision 036).
 */
export function sessionIdOf(principal: Principal): string {
  if (principal.credential.kind !== 'session') {
    throw new ApiError(403, 'This call needs a signed-in session, not an API token.', {
      code: 'sessionRequired',
    });
  }
  return principal.credential.sessionId;
}

/** Answers 403 `sessionRequired` unless the caller signed in with a session; use after `requireAuth`. */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    sessionIdOf(c.var.principal);
    await next();
  };
}
