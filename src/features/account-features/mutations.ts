import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import type { AccountFeatureUpdate, accountFeatureListSchema } from '../../../contract/schemas/licences.ts';
import { useProfile } from '../../lib/current-user.ts';
import { applyToCached } from '../../lib/offline/optimistic.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { isQueued } from '../../lib/offline/queueable-request.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';
import { accountFeatureKeys } from './queries.ts';

export const accountFeatureMutationKeys = {
  update: (accountId: string) => ['account-features', 'update', accountId] as const,
};

export interface AccountFeaturesChange extends Versioned<AccountFeatureUpdate> {
  update: AccountFeatureUpdate;
}

type AccountFeatureList = v.InferOutput<typeof accountFeatureListSchema>;

/** The features a queued change sets, shown on the cached list until the server has them. */
function withUpdate(list: AccountFeatureList, update: AccountFeatureUpdate): AccountFeatureList {
  return {
    ...list,
    items: list.items.map((item) => {
      const entry = update.find((feature) => feature.feature_id === item.featureId);
      return entry ? { ...item, enabled: entry.enabled, endDate: entry.end_date } : item;
    }),
  };
}

/**
 * PUT features/account/{id} (K-04) on the version the section shows: a change made by someone else
 * meanwhile is refused (412), not overwritten. Offline, the outbox keeps it and the cached features
 * show it. The section's form shows a failure itself, so no toast.
 */
export function useUpdateAccountFeatures(account: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const userId = useProfile().id;
  const outbox = useOutbox();
  const { id, name } = account;
  return useMutation({
    mutationKey: accountFeatureMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.accountFeatures.byAccount(id) },
    mutationFn: ({ update, ...change }: AccountFeaturesChange) =>
      sendVersionedChange(
        'PUT',
        apiPaths.accountFeatures.byAccount(id),
        { ...change, body: update },
        { outbox, owner: userId, accountId: id, summary: t`Change the features of account ${name}` },
      ),
    onSuccess: (result, { update }) => {
      if (isQueued(result)) {
        applyToCached<AccountFeatureList>(
          queryClient,
          { queryKey: accountFeatureKeys.detail(id), exact: true },
          (list) => withUpdate(list, update),
        );
      }
    },
  });
}
