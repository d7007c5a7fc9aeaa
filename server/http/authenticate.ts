import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { isPermissionName } from '../../contract/permissions.ts';
import type { AppDeps } from '../app-deps.ts';
import { effectivePermissions } from '../authorization/grants.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { verifyAccessToken } from '../identity/tokens.ts';
import type { AppEnv } from './app-env.ts';
import { ApiError, errorResponse } from './errors.ts';

const AUTHENTICATION_REQUIRED = 'Authentication required.';

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i);
  return match?.[1] ?? null;
}

function unauthenticated(c: Context): Response {
  c.header('WWW-Authenticate', 'Bearer');
  return errorResponse(c, 401, AUTHENTICATION_REQUIRED);
}

/**
 * The caller behind a verified token, when its session is still alive and its user still active:
 * one query on the session's primary key joined to the user, so a logout or a revocation after
 * reuse takes effect on the next request in every server process. A user whose primary account is
 * inactive holds no permission (decision 017): signed in, they see who they are and that their
 * account expired, and every call that needs a permission answers 403.
 */
async function loadPrincipal(
  db: Kysely<Database>,
  now: Date,
  userId: string,
  sessionId: string,
): Promise<Principal | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
    .select((eb) => [
      'users.id',
      'users.user_name',
      'users.access_scope',
      'users.primary_account_id',
      'accounts.active as account_active',
      effectivePermissions(eb.ref('users.id')).as('permissions'),
    ])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('users.active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.id,
    userName: row.user_name,
    accessScope: accessScopeOf(row.access_scope),
    primaryAccountId: row.primary_account_id,
    credential: { kind: 'session', sessionId },
    // Roles may hold names a newer version introduced or an older one dropped: only known ones count.
    permissions: new Set(row.account_active ? row.permissions.filter(isPermissionName) : []),
  };
}

/** The caller of an Authorization header: a valid access token of a live session, or null. */
async function authenticatedPrincipal(
  deps: AppDeps,
  authorization: string | undefined,
): Promise<Principal | null> {
  const token = bearerToken(authorization);
  if (!token) return null;
  const claims = await verifyAccessToken(deps, token);
  if (!claims) return null;
  return loadPrincipal(deps.db, deps.now(), claims.userId, claims.sessionId);
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

/** Answers 401 unless the request carries a valid access token of a live session. */
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
 * a leaked one cannot make itself another credential (decision 018 §5).
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
