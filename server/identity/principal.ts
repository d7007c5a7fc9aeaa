import type { AccessScope, PermissionName } from '../../contract/permissions.ts';

/** The authenticated caller of a request, resolved from its access token and the database. */
export interface Principal {
  userId: string;
  userName: string;
  accessScope: AccessScope;
  primaryAccountId: string;
  sessionId: string;
  permissions: ReadonlySet<PermissionName>;
}
