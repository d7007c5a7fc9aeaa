import { apiPaths } from '../../contract/paths.ts';
import type { TokenOwner, TokenOwners } from '../api-tokens/index.ts';
import { assertUserWithinYours } from '../authorization/grants.ts';
import { assertMayReadUsers, assertUserAccess } from '../authorization/user-access.ts';
import type { CertificateOwners } from '../client-auth/index.ts';
import { sessionIdOf } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';
import { findServiceTokenOwner } from './repository.ts';

/**
 * Who may do what on service users (decision 018 §3.2, §3.3). Reach (G1) is found first by the
 * repository. Reading needs what reading people needs; any change needs manage user and the manage
 * permission of the service user's scope (G2), and the caller must hold everything the service user
 * holds (G4), so nobody disables, edits or takes the tokens of a service user stronger than they are.
 */
export function assertServiceUserAccess(
  principal: Principal,
  target: { access_scope: Principal['accessScope']; permissions: readonly string[] },
  access: Access,
): void {
  if (access === 'view') {
    assertMayReadUsers(principal);
    return;
  }
  assertUserAccess(principal, target.access_scope, 'manage');
  assertUserWithinYours(principal, target.permissions);
}

/**
 * A service user's tokens (decision 035 §3, G7): whoever may change the service user takes the
 * owner's place, to see, make, extend and revoke them; making and extending need a signed-in
 * session, so a leaked token cannot mint another.
 */
export const SERVICE_USER_TOKEN_OWNERS: TokenOwners = {
  prefix: '/service-user',
  find: findServiceTokenOwner,
  authorize: (principal: Principal, owner: TokenOwner, access: Access) =>
    assertServiceUserAccess(principal, owner, access),
  assertMayIssue: (principal: Principal, owner: TokenOwner) => {
    assertServiceUserAccess(principal, owner, 'manage');
    sessionIdOf(principal);
  },
  location: apiPaths.serviceUsers.apiToken,
};

/** A service user as the owner of client certificates: the same rules as for its tokens (decision 019). */
export const SERVICE_USER_CERTIFICATE_OWNERS: CertificateOwners = {
  prefix: '/service-user',
  find: SERVICE_USER_TOKEN_OWNERS.find,
  authorize: SERVICE_USER_TOKEN_OWNERS.authorize,
};
