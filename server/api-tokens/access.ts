import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import { assertUserWithinYours } from '../authorization/grants.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import type { Database } from '../db/schema.ts';
import type { Tag } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { sessionIdOf } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import { findTokenOwner } from './repository.ts';

/** The user whose tokens a route addresses, as far as the rules need them. */
export interface TokenOwner {
  id: string;
  access_scope: Principal['accessScope'];
  /** What the owner holds, for G4. */
  permissions: readonly string[];
  /** A service user's own end date (`YYYY-MM-DD`), which its tokens may not pass; absent for people. */
  end_date?: string | null;
}

/**
 * Who may see and revoke a user's tokens (decision 018 §3.2, G4): the user themselves; whoever may read
 * users sees them; whoever may change that user, and is not weaker than them, revokes them. The owner
 * is within the caller's reach already (404 otherwise).
 */
export function assertTokenAccess(principal: Principal, owner: TokenOwner, access: Access): void {
  if (owner.id === principal.userId) return;
  assertUserAccess(principal, owner.access_scope, access);
  if (access === 'manage') assertUserWithinYours(principal, owner.permissions);
}

/**
 * G7: a person makes and extends tokens for themselves only, whatever the caller may do to others
 * (a token acts, and is logged, as its user), and only in a signed-in session, so a leaked token
 * cannot mint a longer-lived credential.
 */
export function assertMayIssueTokens(principal: Principal, owner: TokenOwner): void {
  if (owner.id !== principal.userId) {
    throw new ApiError(403, 'API tokens are made and changed by their own user only.', {
      code: 'ownUserOnly',
    });
  }
  sessionIdOf(principal);
}

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
  /** How the API reference names and groups these routes: the rest of their description is shared. */
  reference: {
    tag: Tag;
    list: string;
    create: string;
    read: string;
    change: string;
    revoke: string;
  };
}

/** People's tokens: the owner or whoever may change the owner sees and revokes; only the owner makes. */
export const PERSON_TOKEN_OWNERS: TokenOwners = {
  prefix: '/user',
  find: findTokenOwner,
  authorize: assertTokenAccess,
  assertMayIssue: assertMayIssueTokens,
  location: apiPaths.users.apiToken,
  reference: {
    tag: 'API tokens',
    list: "A user's API tokens, newest first, never their values (the user themselves, or view user or any manage-user permission); status=active (the default) leaves out revoked and expired ones.",
    create:
      'Makes an API token for the caller themselves, in a signed-in session (403 ownUserOnly, sessionRequired); the answer holds its value, shown this once (Cache-Control: no-store). At most 20 active tokens (409 limitReached); a name taken among tokens not revoked is 409 inUse.',
    read: 'One API token of a user, without its value; ETag is its version.',
    change:
      "Sets an API token's end date (null for none, else after today); its own user only, in a signed-in session, and not once revoked (409).",
    revoke:
      'Revokes an API token: its own user, or whoever may change that user and holds every permission they hold (403 userExceedsYours). It stops working on the next request.',
  },
};
