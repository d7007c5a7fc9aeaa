import { Trans } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { SectionEmpty } from '../../../../components/section-card.tsx';
import { AccountFeatures } from '../../../../features/account-features/components/account-features-section.tsx';
import { AccountDetailsLoadError } from '../../../../features/accounts/components/account-details-load-error.tsx';
import { AccountDetailsPage } from '../../../../features/accounts/components/account-details-page.tsx';
import { accountKeys, accountQueryOptions } from '../../../../features/accounts/queries.ts';
import { ENROLLMENT_READ_FLAGS } from '../../../../features/enrollments/access.ts';
import { AccountEnrollments } from '../../../../features/enrollments/components/enrollments-sections.tsx';
import { seesApplicationLicences } from '../../../../features/licences/access.ts';
import { AccountLicences } from '../../../../features/licences/components/account-licences.tsx';
import { LicenceHistoryRail } from '../../../../features/licences/components/licence-history-rail.tsx';
import { AccountOrganizations } from '../../../../features/organizations/components/account-organizations.tsx';
import { usePermissionFlags } from '../../../../lib/permissions.tsx';

export const Route = createFileRoute('/_secure/accounts/$id/')({
  // Prefetch, not ensure: a failure must not replace the permission check, which decides first
  // between the page and the alternative page (G-02). The page reads the result or its error.
  loader: ({ context, params }) => context.screenData.preload(accountQueryOptions(params.id)),
  errorComponent: AccountDetailsLoadError,
  component: AccountDetailsRoute,
});

function AccountDetailsRoute() {
  const { id } = Route.useParams();
  const permissions = usePermissionFlags();
  const queryClient = useQueryClient();
  const seesEnrollments = ENROLLMENT_READ_FLAGS.every((flag) => permissions[flag]);
  const seesLicences = seesApplicationLicences(permissions);
  // "View history" in the licences section opens the whole history in the rail beside it.
  const [wholeHistory, setWholeHistory] = useState(false);
  return (
    <RequirePermissions flags={['canViewAccount']}>
      <AccountDetailsPage
        accountId={id}
        organizations={<AccountOrganizations accountId={id} />}
        enrollments={seesEnrollments ? <AccountEnrollments accountId={id} /> : null}
        licences={(account) =>
          seesLicences ? (
            <AccountLicences
              accountId={id}
              accountName={account.name}
              onViewHistory={() => setWholeHistory(true)}
              // The applications and document-signing licence of the account, and of the parent whose
              // pool it drew from, follow their allocations.
              onChanged={() => void queryClient.invalidateQueries({ queryKey: accountKeys.all() })}
            />
          ) : (
            <SectionEmpty>
              <Trans>
                Your roles show no application’s licence: an administrator can give you one that does.
              </Trans>
            </SectionEmpty>
          )
        }
        licenceHistory={(account) =>
          seesLicences ? (
            <LicenceHistoryRail
              accountId={id}
              accountName={account.name}
              expanded={wholeHistory}
              onExpandedChange={setWholeHistory}
            />
          ) : null
        }
        features={(account) => (
          <AccountFeatures
            accountId={id}
            accountName={account.display_name}
            accountEndDate={account.service_period.to}
            // A key-locker account's record names its Software Trust Manager application KeyLocker.
            onChanged={() => void queryClient.invalidateQueries({ queryKey: accountKeys.all() })}
          />
        )}
      />
    </RequirePermissions>
  );
}
