import { queryOptions, useQuery } from '@tanstack/react-query';
import type * as v from 'valibot';
import {
  DEFAULT_FEATURE_FLAGS,
  type FeatureFlag,
  featureFlagListSchema,
} from '../../contract/feature-flags.ts';
import { apiPaths } from '../../contract/paths.ts';
import { apiRequest } from './api-client.ts';

/** The stored settings over the defaults. Loaders, which read the raw list from the cache, use it too. */
export function featureFlagsFrom(
  list: v.InferOutput<typeof featureFlagListSchema>,
): Record<FeatureFlag, boolean> {
  const flags = { ...DEFAULT_FEATURE_FLAGS };
  for (const entry of list.items) flags[entry.name] = entry.enabled;
  return flags;
}

const FEATURE_FLAGS_KEY = ['feature-flags'] as const;

/**
 * The feature flags are read from the server at every start with a connection, like the user's
 * permissions: a flag an administrator changed shows on the next load at the latest, whatever the
 * stored cache holds.
 */
export function isFeatureFlagsQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === FEATURE_FLAGS_KEY[0];
}

export function featureFlagsQueryOptions() {
  return queryOptions({
    queryKey: FEATURE_FLAGS_KEY,
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.featureFlags.list, { schema: featureFlagListSchema, signal }),
    select: featureFlagsFrom,
    staleTime: 5 * 60_000,
  });
}

/** The platform's feature flags; every flag reads as off until they have loaded. */
export function useFeatureFlags(): Record<FeatureFlag, boolean> {
  const { data } = useQuery(featureFlagsQueryOptions());
  return data ?? { partner_accounts: false, partner_scope: false, federated_info: false, roles: false };
}
