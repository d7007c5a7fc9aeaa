import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { AccountFeatures } from '../../../../features/account-features/components/account-features-section.tsx';
import { AccountDetailsLoadError } from '../../../../features/accounts/components/account-details-load-error.tsx';
import { AccountDetailsPage } from '../../../../features/accounts/components/account-details-page.tsx';
import { accountQueryOptions } from '../../../../features/accounts/queries.ts';
import { ENROLLMENT_READ_FLAGS } from '../../../../features/enrollments/access.ts';
import { AccountEnrollments } from '../../../../features/enrollments/components/enrollments-sections.tsx';
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
  const seesEnrollments = ENROLLMENT_READ_FLAGS.every((flag) => permissions[flag]);
  return (
    <RequirePermissions flags={['canViewAccount']}>
      <AccountDetailsPage
        accountId={id}
        organizations={<AccountOrganizations accountId={id} />}
        enrollments={seesEnrollments ? <AccountEnrollments accountId={id} /> : null}
        features={(account) => (
          <AccountFeatures
            accountId={id}
            accountName={account.display_name}
            accountEndDate={account.service_period.to}
          />
        )}
      />
    </RequirePermissions>
  );
}
