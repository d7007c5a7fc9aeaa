import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenList,
  type ApiTokenListQuery,
} from '../../contract/schemas/api-tokens.ts';
import { effectivePermissions } from '../authorization/grants.ts';
import { reachablePerson } from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import { listPage } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { hashOpaqueToken, newOpaqueToken } from '../identity/opaque-tokens.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import type { TokenOwner } from './access.ts';

/** A token is expired once its end date is before today (UTC); it works through its end date. */
function endedBefore(today: string) {
  return (eb: ExpressionBuilder<Database, 'api_tokens'>) =>
    eb.and([eb('api_tokens.end_date', 'is not', null), eb('api_tokens.end_date', '<', today)]);
}

function tokenColumns(now: Date) {
  const today = utcDate(now);
  return (eb: ExpressionBuilder<Database, 'api_tokens'>) =>
    [
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.name',
      'api_tokens.hint',
      'api_tokens.created_at',
      'api_tokens.end_date',
      'api_tokens.last_used_at',
      'api_tokens.revoked_at',
      'api_tokens.version',
      eb
        .case()
        .when('api_tokens.revoked_at', 'is not', null)
        .then(sql.lit('revoked'))
        .when(endedBefore(today)(eb))
        .then(sql.lit('expired'))
        .else(sql.lit('active'))
        .end()
        .$castTo<ApiToken['status']>()
        .as('status'),
    ] as const;
}

type TokenRow = {
  id: string;
  user_id: string;
  name: string;
  hint: string;
  created_at: Date;
  end_date: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  version: number;
  status: ApiToken['status'];
};

function record(row: TokenRow): ApiToken {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** The token `tokenId` of the user `userId`; with `lock`, held until the transaction ends. */
export async function findApiToken(
  db: Kysely<Database>,
  userId: string,
  tokenId: string,
  now: Date,
  lock: boolean,
): Promise<ApiToken | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .select(tokenColumns(now))
    .where('api_tokens.id', '=', tokenId)
    .where('api_tokens.user_id', '=', userId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && record(row);
}

/** A user's tokens, newest first; `active` leaves out revoked and expired ones. */
export async function listApiTokens(
  db: Kysely<Database>,
  userId: string,
  query: Required<Pick<ApiTokenListQuery, 'limit' | 'offset'>> & { status: 'active' | 'all' },
  now: Date,
): Promise<ApiTokenList> {
  const today = utcDate(now);
  const matching = db
    .selectFrom('api_tokens')
    .where('api_tokens.user_id', '=', userId)
    .$if(query.status === 'active', (q) =>
      q.where('api_tokens.revoked_at', 'is', null).where((eb) => eb.not(endedBefore(today)(eb))),
    );
  // A user's few tokens, newest first with ids ascending among equals: no keyset (mixed directions).
  const { rows, ...total } = await listPage(
    { db, matching, keys: null, direction: 'desc', page: query },
    (cut) =>
      cut
        .select(tokenColumns(now))
        .orderBy('api_tokens.created_at', 'desc')
        .orderBy('api_tokens.id')
        .execute(),
  );
  return { items: rows.map(record), ...total };
}

/** How many of a user's tokens still work (neither revoked nor past their end date). */
export async function countActiveApiTokens(db: Kysely<Database>, userId: string, now: Date): Promise<number> {
  const { total } = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.not(endedBefore(utcDate(now))(eb)))
    .executeTakeFirstOrThrow();
  return Number(total);
}

/** Whether the user has a token not revoked by this name (names tell working tokens apart). */
export async function apiTokenNameTaken(
  db: Kysely<Database>,
  userId: string,
  name: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('api_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Makes a token for `userId` and answers it with its value: the one time the value exists outside the
 * caller's hands. Only its SHA-256 and last four characters are stored.
 */
export async function insertApiToken(
  db: Kysely<Database>,
  fields: { userId: string; name: string; endDate: string | null; createdBy: string },
  now: Date,
): Promise<ApiTokenCreated> {
  const value = `${API_TOKEN_PREFIX}${newOpaqueToken()}`;
  const row = await db
    .insertInto('api_tokens')
    .values({
      id: randomUUID(),
      user_id: fields.userId,
      name: fields.name,
      token_hash: hashOpaqueToken(value),
      hint: value.slice(-4),
      end_date: fields.endDate,
      created_at: now,
      created_by: fields.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const created = await findApiToken(db, fields.userId, row.id, now, false);
  if (!created) throw new Error('A token just made is gone.');
  return { ...created, value };
}

export async function updateApiTokenEndDate(
  db: Kysely<Database>,
  tokenId: string,
  endDate: string | null,
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set((eb) => ({ end_date: endDate, version: eb('version', '+', 1) }))
    .where('id', '=', tokenId)
    .execute();
}

export async function revokeApiToken(
  db: Kysely<Database>,
  tokenId: string,
  revokedBy: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set((eb) => ({ revoked_at: now, revoked_by: revokedBy, version: eb('version', '+', 1) }))
    .where('id', '=', tokenId)
    .execute();
}

/**
 * The person `id` with what they hold, if `principal` reaches them (else undefined, answered 404); a
 * service user's tokens live under `service-user/{id}/api-tokens`.
 */
export async function findTokenOwner(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<(TokenOwner & { primary_account_id: string }) | undefined> {
  const row = await reachablePerson(db, principal, id)
    .select((eb) => [
      'users.id',
      'users.access_scope',
      'users.primary_account_id',
      effectivePermissions(eb.ref('users.id')).as('permissions'),
    ])
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && { ...row, access_scope: accessScopeOf(row.access_scope) };
}
