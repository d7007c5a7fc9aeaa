import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import {
  type ApiToken,
  type ApiTokenCreated,
  apiTokenCreateSchema,
  apiTokenListQuerySchema,
  apiTokenParamsSchema,
  apiTokenUpdateSchema,
} from '../../contract/schemas/api-tokens.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import { userIdParamsSchema } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, updateDetails } from '../audit/change.ts';
import { USER_NOT_FOUND } from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { type Access, type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertMayIssueTokens, assertTokenAccess, type TokenOwner } from './access.ts';
import {
  apiTokenNameTaken,
  countActiveApiTokens,
  findApiToken,
  findTokenOwner,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  updateApiTokenEndDate,
} from './repository.ts';
import {
  assertBelowLimit,
  assertEndDate,
  assertNotRevoked,
  assertWithinOwnerEndDate,
  nameInUse,
} from './rules.ts';

/**
 * Whose tokens a set of token routes addresses, and who may do what with them: people's tokens
 * (`user/{id}/api-tokens`, G7: only their own user makes them) and service users' tokens
 * (`service-user/{id}/api-tokens`, where whoever may change the service user takes the owner's
 * place). The checks of the routes themselves (limit, name, end date, audit) are the same for both.
 */
export interface TokenOwners {
  /** `/user` or `/service-user`: the routes are `${prefix}/:id/api-tokens[/:tokenId]`. */
  prefix: string;
  /** The owner `id` within the caller's reach, else undefined (answered 404). */
  find(
    db: Kysely<Database>,
    principal: Principal,
    id: string,
    lock: boolean,
  ): Promise<(TokenOwner & { primary_account_id: string }) | undefined>;
  /** Reading the tokens (`view`) or revoking one (`manage`); throws 403. */
  authorize(principal: Principal, owner: TokenOwner, access: Access): void;
  /** Making a token or setting its end date, which may extend it; throws 403. */
  assertMayIssue(principal: Principal, owner: TokenOwner): void;
  location(userId: string, tokenId: string): string;
}

/** People's tokens: the owner or whoever may change the owner sees and revokes; only the owner makes. */
export const PERSON_TOKEN_OWNERS: TokenOwners = {
  prefix: '/user',
  find: findTokenOwner,
  authorize: assertTokenAccess,
  assertMayIssue: assertMayIssueTokens,
  location: apiPaths.users.apiToken,
};

/** A token with its owner, whose reach and permissions decide who may see or revoke it. */
type OwnedToken = ApiToken & { owner: TokenOwner };

/** A token of a user the caller reaches (404 otherwise, like a missing one); answered without its owner. */
function tokenKind(
  deps: AppDeps,
  owners: TokenOwners,
): ResourceKind<{ id: string; tokenId: string }, OwnedToken> {
  return {
    label: 'API token',
    resourceType: 'APIKEY',
    find: async (db, principal, { id, tokenId }, lock) => {
      const owner = await owners.find(db, principal, id, lock);
      const token = owner && (await findApiToken(db, owner.id, tokenId, deps.now(), lock));
      return token && { row: { ...token, owner }, accountId: owner.primary_account_id };
    },
    authorize: (principal, { row }, access) => owners.authorize(principal, row.owner, access),
    represent: async (_db, _principal, { row: { owner: _owner, ...token } }) => token,
  };
}

/**
 * Makes a token for `owner` once the caller may (checked by the caller), inside `trx`, which holds
 * the owner locked so two creations at once cannot both pass the limit or take one name; records
 * CREATE APIKEY. POST user/{id}/api-tokens, POST service-user/{id}/api-tokens and POST service-user
 * (its first token) make tokens here.
 */
export async function issueApiToken(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: AppDeps,
  owner: TokenOwner & { primary_account_id: string },
  fields: { name: string; endDate: string | null },
  now: Date,
): Promise<ApiTokenCreated> {
  const { name, endDate } = fields;
  assertEndDate(endDate, utcDate(now));
  assertWithinOwnerEndDate(owner, endDate);
  assertBelowLimit(await countActiveApiTokens(trx, owner.id, now));
  if (await apiTokenNameTaken(trx, owner.id, name)) throw nameInUse();
  const token = await insertApiToken(
    trx,
    { userId: owner.id, name, endDate, createdBy: c.var.principal.userId },
    now,
  );
  await auditChange(trx, c, deps, {
    action: 'CREATE',
    resourceType: 'APIKEY',
    resourceId: token.id,
    accountId: owner.primary_account_id,
    details: { name, user_id: owner.id, end_date: endDate },
  });
  return token;
}

/** API tokens of people, or of service users (/account/ui-api/v1, decision 018 §4.3), described in docs/api.md. */
export function apiTokenRoutes(deps: AppDeps, owners: TokenOwners = PERSON_TOKEN_OWNERS): Hono<AppEnv> {
  const { db } = deps;
  const TOKENS = `${owners.prefix}/:id/api-tokens`;
  const TOKEN = `${owners.prefix}/:id/api-tokens/:tokenId`;
  const authenticated = requireAuth(deps);
  const tokens = versionedResource(deps, tokenKind(deps, owners));
  const userParams = validateParams(userIdParamsSchema);
  const tokenParams = validateParams(apiTokenParamsSchema);

  return (
    new Hono<AppEnv>()
      .get(TOKENS, authenticated, userParams, validateQuery(apiTokenListQuerySchema), async (c) => {
        const owner = await owners.find(db, c.var.principal, c.req.valid('param').id, false);
        if (!owner) throw new ApiError(404, USER_NOT_FOUND);
        owners.authorize(c.var.principal, owner, 'view');
        const { status = 'active', limit = DEFAULT_LIST_LIMIT, offset = 0 } = c.req.valid('query');
        return c.json(await listApiTokens(db, owner.id, { status, limit, offset }, deps.now()));
      })
      // Not through `versionedResource.create`: the answer is the one place the token's value exists,
      // so it is made here, never stored by the idempotency middleware (`isIdempotencyExempt`), and
      // marked for no cache to keep.
      .post(TOKENS, authenticated, userParams, validateJson(apiTokenCreateSchema), async (c) => {
        const principal = c.var.principal;
        const { name, end_date: endDate } = c.req.valid('json');
        const now = deps.now();
        const created = await db.transaction().execute(async (trx) => {
          const owner = await owners.find(trx, principal, c.req.valid('param').id, true);
          if (!owner) throw new ApiError(404, USER_NOT_FOUND);
          owners.assertMayIssue(principal, owner);
          return issueApiToken(trx, c, deps, owner, { name, endDate }, now);
        });
        c.header('Cache-Control', 'no-store');
        c.header('Location', owners.location(created.user_id, created.id));
        c.header('ETag', entityTag(created.version));
        return c.json(created, 201);
      })
      .get(TOKEN, authenticated, tokenParams, (c) => tokens.read(c, c.req.valid('param')))
      .put(TOKEN, authenticated, tokenParams, validateJson(apiTokenUpdateSchema), (c) => {
        const { end_date: endDate } = c.req.valid('json');
        return tokens.change(c, c.req.valid('param'), {
          precondition: 'honoured',
          permit: ({ row }) => {
            // Any new end date may extend the token, so only who may make one, in a session, sets one.
            owners.assertMayIssue(c.var.principal, row.owner);
            assertNotRevoked(row);
          },
          apply: async (trx, { row }, now) => {
            if (row.end_date === endDate) return null;
            assertEndDate(endDate, utcDate(now));
            assertWithinOwnerEndDate(row.owner, endDate);
            await updateApiTokenEndDate(trx, row.id, endDate);
            return {
              action: 'UPDATE',
              details: updateDetails({ end_date: row.end_date }, { end_date: endDate }, ['end_date']),
            };
          },
        });
      })
      .delete(TOKEN, authenticated, tokenParams, (c) =>
        tokens.change(c, c.req.valid('param'), {
          precondition: 'honoured',
          // Revoking twice changes nothing: the first revocation stands, with its time and author.
          apply: async (trx, { row }, now) => {
            if (row.revoked_at !== null) return null;
            await revokeApiToken(trx, row.id, c.var.principal.userId, now);
            return { action: 'DELETE', details: { name: row.name, user_id: row.user_id } };
          },
        }),
      )
  );
}
