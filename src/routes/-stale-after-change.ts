import { accountFeaturesStaleAfter } from '../features/account-features/queries.ts';
import { accountsStaleAfter } from '../features/accounts/queries.ts';
import { apiTokensStaleAfter } from '../features/api-tokens/queries.ts';
import { auditLogStaleAfter } from '../features/audit-log/queries.ts';
import { bulkImportStaleAfter } from '../features/bulk-import/queries.ts';
import { certificateProfilesStaleAfter } from '../features/certificate-profiles/queries.ts';
import { certificatesStaleAfter } from '../features/certificates/queries.ts';
import { clientAuthStaleAfter } from '../features/client-auth/queries.ts';
import { enrollmentsStaleAfter } from '../features/enrollments/queries.ts';
import { licencesStaleAfter } from '../features/licences/queries.ts';
import { organizationsStaleAfter } from '../features/organizations/queries.ts';
import { rolesStaleAfter } from '../features/roles/queries.ts';
import { serviceUsersStaleAfter } from '../features/service-users/queries.ts';
import { usersStaleAfter } from '../features/users/queries.ts';
import type { StaleAfterChange } from '../lib/stale-after-change.ts';

/** A domain's declaration, with what its changes make stale in the domains that show its objects. */
function alsoStale(change: StaleAfterChange, ...shownIn: StaleAfterChange[]): StaleAfterChange {
  return { ...change, queryKeys: [...change.queryKeys, ...shownIn.flatMap((domain) => domain.queryKeys)] };
}

/**
 * What a change makes stale, for every domain that makes changes: online when it succeeds, and when a
 * queued one leaves the outbox. A new domain adds its declaration here. Loaded with the first change,
 * not with the route definitions, so the sign-in page never loads the features' queries.
 */
export const STALE_AFTER_CHANGE: readonly StaleAfterChange[] = [
  accountsStaleAfter,
  // A key-locker account's record names its Software Trust Manager application KeyLocker.
  alsoStale(accountFeaturesStaleAfter, accountsStaleAfter),
  // The account's applications follow its allocations.
  alsoStale(licencesStaleAfter, accountsStaleAfter),
  organizationsStaleAfter,
  usersStaleAfter,
  serviceUsersStaleAfter,
  // The users' lists and details name their roles.
  alsoStale(rolesStaleAfter, usersStaleAfter),
  apiTokensStaleAfter,
  clientAuthStaleAfter,
  bulkImportStaleAfter,
  certificatesStaleAfter,
  certificateProfilesStaleAfter,
  enrollmentsStaleAfter,
  auditLogStaleAfter,
];
