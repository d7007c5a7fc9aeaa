import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { accountFeatureListSchema } from '../../../contract/schemas/licences.ts';
import { apiRequest } from '../../lib/api-client.ts';

/** The features of each account (decision 022 §4). */
export const accountFeatureKeys = {
  all: () => ['account-features'] as const,
  detail: (accountId: string) => [...accountFeatureKeys.all(), accountId] as const,
};

// A queued change of an account's features reaching the server makes them stale (routes/-sync-targets.ts).

/** GET features/account/{id}: read fresh when online, since the section is also the features' edit form. */
export function accountFeaturesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: accountFeatureKeys.detail(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.accountFeatures.byAccount(accountId), {
        schema: accountFeatureListSchema,
        signal,
      }),
    staleTime: 0,
  });
}
