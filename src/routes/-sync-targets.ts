import { UI_API_V1 } from '../../contract/paths.ts';
import { accountFeatureKeys } from '../features/account-features/queries.ts';
import { accountKeys } from '../features/accounts/queries.ts';
import { auditLogKeys } from '../features/audit-log/queries.ts';
import { licenceKeys } from '../features/licences/queries.ts';
import { organizationKeys } from '../features/organizations/queries.ts';
import { serviceUserKeys } from '../features/service-users/queries.ts';
import { userKeys } from '../features/users/queries.ts';
import { currentUserKeys } from '../lib/current-user.ts';
import type { SyncTarget } from '../lib/offline/sync-targets.ts';

/**
 * What a change that leaves the outbox makes stale, for every queueable change of the console: a new
 * queueable domain adds its line here. Loaded with the secure layout's offline support, not with the
 * route definitions, so the sign-in page never loads the features' queries.
 */
export const SYNC_TARGETS: readonly SyncTarget[] = [
  // An account's name and end date also show in the user's own profile (the account switcher).
  { prefix: `${UI_API_V1}/tenant`, queryKeys: [accountKeys.all(), currentUserKeys.profile()] },
  // A key-locker account's record names its Software Trust Manager application KeyLocker.
  { prefix: `${UI_API_V1}/features/account`, queryKeys: [accountFeatureKeys.all(), accountKeys.all()] },
  // A licence change (account/{id}/license/{app}): the account's applications follow its allocations.
  { prefix: `${UI_API_V1}/account/`, queryKeys: [licenceKeys.all(), accountKeys.all()] },
  { prefix: `${UI_API_V1}/organizations`, queryKeys: [organizationKeys.all()] },
  { prefix: `${UI_API_V1}/service-user`, queryKeys: [serviceUserKeys.all()] },
  // A user's edit, an administrator's or the person's own (decision 039 §9).
  { prefix: `${UI_API_V1}/user`, queryKeys: [userKeys.all(), currentUserKeys.profile()] },
  // Every change that reaches the server is recorded in the audit log, so its lists are behind.
  { prefix: UI_API_V1, queryKeys: [auditLogKeys.lists()] },
];
