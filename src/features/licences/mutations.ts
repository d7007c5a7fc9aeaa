import { useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApplicationCode } from '../../../contract/permissions.ts';
import type { LicenceChangeRequest } from '../../../contract/schemas/licences.ts';
import { APPLICATION_NAMES } from '../../components/role-labels.ts';
import { useProfile } from '../../lib/current-user.ts';
import { useOutbox } from '../../lib/offline/outbox-client.ts';
import { sendVersionedChange, type Versioned } from '../../lib/offline/versioned-change.ts';

export const licenceMutationKeys = {
  change: (accountId: string, app: ApplicationCode) => ['licences', 'change', accountId, app] as const,
};

/**
 * A change of one application's allocations. `base` is the totals the dialog showed, by licence
 * type: a change is a list of additions and subtractions, never equal to those totals, so a second
 * change queued behind it is never moved onto the version the first makes. It keeps its If-Match and
 * comes back 412 if the pool moved, shown as a conflict (decision 022 §2).
 */
export interface LicenceEdit extends Versioned<Readonly<Record<string, number>>> {
  change: LicenceChangeRequest;
}

/**
 * PUT account/{id}/license/{app} with If-Match (J-32), queueable offline like an account edit. The
 * dialog says how it went and refreshes the licence data on its own schedule (J-30), so no toast and
 * no invalidation here.
 */
export function useChangeLicence(accountId: string, accountName: string, app: ApplicationCode) {
  const { t } = useLingui();
  const userId = useProfile().id;
  const outbox = useOutbox();
  const application = APPLICATION_NAMES[app];
  return useMutation({
    mutationKey: licenceMutationKeys.change(accountId, app),
    meta: { errorToast: false },
    mutationFn: ({ change, ...versioned }: LicenceEdit) =>
      sendVersionedChange(
        'PUT',
        apiPaths.licence.byApp(accountId, app),
        { ...versioned, body: change },
        { outbox, owner: userId, accountId, summary: t`Change ${application} licences of ${accountName}` },
      ),
  });
}
