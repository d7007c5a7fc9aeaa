import { assertUserWithinYours } from '../authorization/grants.ts';
import { ApiError } from '../http/errors.ts';
import { sessionIdOf } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import { assertUserAccess } from '../users/access.ts';

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
