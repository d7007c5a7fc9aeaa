import { Hono } from 'hono';
import {
  type ApiToken,
  apiTokenCreateSchema,
  apiTokenListQuerySchema,
  apiTokenParamsSchema,
  apiTokenUpdateSchema,
} from '../../contract/schemas/api-tokens.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import { userIdParamsSchema } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { updateDetails } from '../audit/change.ts';
import { USER_NOT_FOUND } from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import type { AppEnv } from '../http/app-env.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { PERSON_TOKEN_OWNERS, type TokenOwner, type TokenOwners } from './access.ts';
import { issueApiToken } from './issue.ts';
import { findApiToken, listApiTokens, revokeApiToken, updateApiTokenEndDate } from './repository.ts';
import { assertEndDate, assertNotRevoked, assertWithinOwnerEndDate } from './rules.ts';

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

/** API tokens of people, or of service users (/account/ui-api/v1, decision 035 §3), described in docs/api.md. */
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
