import type { AccessScope, PermissionName } from '../../contract/permissions.ts';

/**
 * What a request authenticated with: a sign-in session (its access token), or an API token, which
 * acts as its user but may not mint credentials (decision 036).
 */
export type Credential = { kind: 'session'; sessionId: string } | { kind: 'apiToken'; tokenId: string };

/** The authenticated caller of a request, resolved from its access token and the database. */
export interface Principal {
  userId: string;
  userName: string;
  accessScope: AccessScope;
  primaryAccountId: string;
  credential: Credential;
  permissions: ReadonlySet<PermissionName>;
}
