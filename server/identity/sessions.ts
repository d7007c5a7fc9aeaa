import { createHash, hkdfSync, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { ACCESS_SCOPES, type AccessScope } from '../../contract/permissions.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';
import { SEALING_KEY_LENGTH, seal, unseal } from '../sealed-box.ts';
import { hashOpaqueToken, isOpaqueToken, newOpaqueToken } from './opaque-tokens.ts';

/**
 * Sign-in sessions and their refresh tokens. A session is one refresh-token family: every refresh
 * spends the presented token and issues its successor in the same session. Everything lives in the
 * database, so any number of server processes on one PostgreSQL agree on what is valid.
 */

type SessionDeps = Pick<AppDeps, 'config' | 'now'>;

export type RevocationReason =
  | 'logout'
  | 'reuse_detected'
  | 'admin'
  | 'expired'
  | 'account_deactivated'
  | 'password_changed'
  | 'password_reset'
  | 'user_disabled';

export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

/** Who a session belongs to, as the access token needs it. */
export interface SessionOwner {
  userId: string;
  userName: string;
  accessScope: AccessScope;
  primaryAccountId: string;
}

export type RefreshOutcome =
  | { kind: 'rotated'; sessionId: string; owner: SessionOwner; refreshToken: IssuedRefreshToken }
  /** The token had been exchanged before: someone holds a copy, so its whole session is now revoked. */
  | { kind: 'reused'; sessionId: string; owner: SessionOwner }
  | { kind: 'rejected' };

/**
 * How long after a refresh token was spent the same client may present it again and be answered the
 * same successor (decision 003, "A lost answer is not a theft"): long enough for a retry after an
 * answer lost on the way, too short for a copy to be worth much.
 */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

/** Who presents a refresh token, as far as the server can tell: its address and user agent. */
export function refreshClient(ipAddress: string | null, userAgent: string | null): string {
  return createHash('sha256')
    .update(`${ipAddress ?? ''}\n${userAgent ?? ''}`)
    .digest('hex');
}

/**
 * The key a spent token's successor is sealed under: derived from the spent token, which the database
 * never holds (only its SHA-256), so a copy of the database opens no successor.
 */
function successorKey(spentToken: string): Uint8Array {
  return new Uint8Array(
    hkdfSync('sha256', spentToken, '', 'trust-console refresh-token successor', SEALING_KEY_LENGTH),
  );
}

/** Sliding expiry: one refresh lifetime from now, but never past the session's absolute limit. */
function slidingExpiry({ config }: SessionDeps, now: Date, sessionCreatedAt: Date): Date {
  const sliding = now.getTime() + config.refreshTokenTtlSeconds * 1000;
  const absolute = sessionCreatedAt.getTime() + config.sessionMaxAgeSeconds * 1000;
  return new Date(Math.min(sliding, absolute));
}

async function insertRefreshToken(
  db: Kysely<Database>,
  sessionId: string,
  issuedAt: Date,
  expiresAt: Date,
): Promise<IssuedRefreshToken> {
  const token = newOpaqueToken();
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: hashOpaqueToken(token),
      session_id: sessionId,
      issued_at: issuedAt,
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/** Opens a session for a user who just proved who they are; pass the sign-in transaction as `db`. */
export async function startSession(
  db: Kysely<Database>,
  deps: SessionDeps,
  request: { userId: string; ipAddress: string | null; userAgent: string | null },
): Promise<{ sessionId: string; refreshToken: IssuedRefreshToken }> {
  const now = deps.now();
  const sessionId = randomUUID();
  const expiresAt = slidingExpiry(deps, now, now);
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: request.userId,
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt,
      ip_address: request.ipAddress,
      // A header of any length must not bloat the table.
      user_agent: request.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  const refreshToken = await insertRefreshToken(db, sessionId, now, expiresAt);
  return { sessionId, refreshToken };
}

/** A user row's scope; the table's check constraint makes anything else a corrupt row. */
export function accessScopeOf(scope: string): AccessScope {
  const match = ACCESS_SCOPES.find((known) => known === scope);
  if (!match) throw new Error(`User has an unknown access scope "${scope}".`);
  return match;
}

/**
 * Exchanges a refresh token for its successor inside the caller's transaction (which also records
 * the audit event). The token and session rows stay locked until it commits, so of two processes
 * presenting the same token the second waits, then finds it spent and treats it as reuse. The caller
 * must commit a `reused` outcome too: the revocation is the point, even though it answers 401.
 */
export async function rotateRefreshToken(
  trx: Transaction<Database>,
  deps: SessionDeps,
  presentedToken: string,
  client: string,
): Promise<RefreshOutcome> {
  if (!isOpaqueToken(presentedToken)) return { kind: 'rejected' };
  const now = deps.now();
  const row = await trx
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'refresh_tokens.token_hash',
      'refresh_tokens.expires_at as token_expires_at',
      'refresh_tokens.used_at',
      'refresh_tokens.spent_by',
      'refresh_tokens.successor_sealed',
      'sessions.id as session_id',
      'sessions.created_at as session_created_at',
      'sessions.expires_at as session_expires_at',
      'sessions.revoked_at',
      'users.id as user_id',
      'users.user_name',
      'users.access_scope',
      'users.primary_account_id',
      'users.active',
    ])
    .where('refresh_tokens.token_hash', '=', hashOpaqueToken(presentedToken))
    // Service users never sign in, so they never refresh either (decision 036).
    .where('users.kind', '=', 'person')
    .forUpdate(['refresh_tokens', 'sessions'])
    .executeTakeFirst();
  if (!row) return { kind: 'rejected' };

  const owner: SessionOwner = {
    userId: row.user_id,
    userName: row.user_name,
    accessScope: accessScopeOf(row.access_scope),
    primaryAccountId: row.primary_account_id,
  };
  const live = row.revoked_at === null && row.active && row.session_expires_at.getTime() > now.getTime();
  if (row.used_at !== null) {
    const again =
      live &&
      row.spent_by === client &&
      now.getTime() - row.used_at.getTime() <= REFRESH_REUSE_INTERVAL_MS &&
      row.successor_sealed !== null
        ? await unspentSuccessor(trx, presentedToken, row.session_id, row.successor_sealed)
        : null;
    if (again) return { kind: 'rotated', sessionId: row.session_id, owner, refreshToken: again };
    await revokeSession(trx, row.session_id, 'reuse_detected', now);
    return { kind: 'reused', sessionId: row.session_id, owner };
  }
  if (!live || row.token_expires_at.getTime() <= now.getTime()) return { kind: 'rejected' };

  const expiresAt = slidingExpiry(deps, now, row.session_created_at);
  await trx
    .updateTable('sessions')
    .set({ last_used_at: now, expires_at: expiresAt })
    .where('id', '=', row.session_id)
    .execute();
  const refreshToken = await insertRefreshToken(trx, row.session_id, now, expiresAt);
  // Only the newest spent token can be answered again: older ones' successors are spent already.
  await trx
    .updateTable('refresh_tokens')
    .set({ successor_sealed: null })
    .where('session_id', '=', row.session_id)
    .where('successor_sealed', 'is not', null)
    .execute();
  await trx
    .updateTable('refresh_tokens')
    .set({
      used_at: now,
      spent_by: client,
      successor_sealed: Buffer.from(
        seal(successorKey(presentedToken), row.session_id, Buffer.from(refreshToken.token, 'utf8')),
      ).toString('base64url'),
    })
    .where('token_hash', '=', row.token_hash)
    .execute();
  return { kind: 'rotated', sessionId: row.session_id, owner, refreshToken };
}

/**
 * The successor sealed in a spent token, while that successor is itself unspent and unexpired: the
 * answer the client lost. Null otherwise, which makes the presentation reuse.
 */
async function unspentSuccessor(
  trx: Transaction<Database>,
  spentToken: string,
  sessionId: string,
  sealed: string,
): Promise<IssuedRefreshToken | null> {
  const opened = unseal(successorKey(spentToken), sessionId, Buffer.from(sealed, 'base64url'));
  if (opened === null) return null;
  const token = Buffer.from(opened).toString('utf8');
  const successor = await trx
    .selectFrom('refresh_tokens')
    .select(['expires_at'])
    .where('token_hash', '=', hashOpaqueToken(token))
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return successor ? { token, expiresAt: successor.expires_at } : null;
}

/** Ends a session at once; a session already revoked keeps its first reason. */
export async function revokeSession(
  db: Kysely<Database>,
  sessionId: string,
  reason: RevocationReason,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends at once every live session of the users whose primary account is `accountId` (decision 017);
 * answers how many ended. Their access tokens stop working on their next request too, since every
 * request looks its session up.
 */
export async function revokeAccountSessions(
  db: Kysely<Database>,
  accountId: string,
  reason: RevocationReason,
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', 'in', (eb) =>
      eb.selectFrom('users').select('id').where('primary_account_id', '=', accountId),
    )
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends at once every live session of the user `userId` but `keep` (the session of a person changing
 * their own password stays); answers how many ended. Disabling a user, a password reset and a
 * password change call it, so re-enabling never revives a session and a reset locks out whoever
 * held the old password.
 */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  reason: RevocationReason,
  now: Date,
  options: { keep?: string } = {},
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .$if(options.keep !== undefined, (query) => query.where('id', '!=', options.keep ?? ''))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
