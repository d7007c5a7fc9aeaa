import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { ORGANIZATION_READ_FLAGS } from '../../../../features/organizations/access.ts';
import { OrganizationsErrorPage } from '../../../../features/organizations/components/organizations-error-page.tsx';
import { OrganizationsPage } from '../../../../features/organizations/components/organizations-page.tsx';
import {
  organizationListQuery,
  organizationListSearchSchema,
} from '../../../../features/organizations/list-search.ts';
import { organizationListQueryOptions } from '../../../../features/organizations/queries.ts';
import { activeAccountIdOf, profileQueryOptions, useActiveAccountId } from '../../../../lib/current-user.ts';
import { useAccountName } from './-account-name.ts';

export const Route = createFileRoute('/_secure/ca/organizations/')({
  validateSearch: organizationListSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { screenData }, deps }) => {
    const accountId = deps.accountId ?? activeAccountIdOf(await screenData.load(profileQueryOptions()));
    await screenData.load(organizationListQueryOptions(organizationListQuery(deps, accountId)));
  },
  errorComponent: OrganizationsErrorPage,
  component: function OrganizationsRoute() {
    const search = Route.useSearch();
    const activeAccountId = useActiveAccountId();
    const accountId = search.accountId ?? activeAccountId;
    const accountName = useAccountName(accountId);
    return (
      <RequirePermissions flags={[]} anyOf={ORGANIZATION_READ_FLAGS}>
        <OrganizationsPage search={search} accountId={accountId} accountName={accountName} />
      </RequirePermissions>
    );
  },
});
