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
  reference: {
    tag: 'Service users',
    list: "A service user's API tokens, newest first, never their values (view user or any manage-user permission); status=active (the default) leaves out revoked and expired ones.",
    create:
      "Makes an API token for a service user (whoever may change it, in a signed-in session); its end date may not pass the service user's. The answer holds its value, shown this once (Cache-Control: no-store).",
    read: 'One API token of a service user, without its value; ETag is its version.',
    change:
      "Sets a service user's API token's end date (whoever may change the service user, in a signed-in session; not past the service user's end date).",
    revoke:
      "Revokes a service user's API token (whoever may change the service user); it stops on the next request.",
  },
};

/** A service user as the owner of client certificates: the same rules as for its tokens (decision 019). */
export const SERVICE_USER_CERTIFICATE_OWNERS: CertificateOwners = {
  prefix: '/service-user',
  find: SERVICE_USER_TOKEN_OWNERS.find,
  authorize: SERVICE_USER_TOKEN_OWNERS.authorize,
  reference: {
    tag: 'Service users',
    list: "A service user's client-authentication certificates, newest first (view user or any manage-user permission).",
    register:
      'Registers a client-authentication certificate for a service user (whoever may change it), in a signed-in session. Generate: the subject is its user name and primary account name; upload: one X.509 certificate, PEM or DER, not expired, at most 4 KB (413); a duplicate is 409 inUse.',
  },
};
