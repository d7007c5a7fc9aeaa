import { queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import { accountFeatureListSchema } from '../../../contract/schemas/licences.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/** The features of each account (decision 022 §4). */
export const accountFeatureKeys = {
  all: () => ['account-features'] as const,
  detail: (accountId: string) => [...accountFeatureKeys.all(), accountId] as const,
};

/** What a change of an account's features makes stale (the app adds the accounts, which name them). */
export const accountFeaturesStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/features/account`,
  queryKeys: [accountFeatureKeys.all()],
};

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
