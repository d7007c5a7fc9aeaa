import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { ORGANIZATION_MANAGE_FLAGS } from '../../../../features/organizations/access.ts';
import { CreateOrganizationPage } from '../../../../features/organizations/components/organization-form-pages.tsx';
import { organizationCreateSearchSchema } from '../../../../features/organizations/list-search.ts';
import { useActiveAccountId } from '../../../../lib/current-user.ts';
import { useAccountName } from './-account-name.ts';

export const Route = createFileRoute('/_secure/ca/organizations/create')({
  validateSearch: organizationCreateSearchSchema,
  component: function CreateOrganizationRoute() {
    const { accountId: listAccountId } = Route.useSearch();
    const activeAccountId = useActiveAccountId();
    const accountId = listAccountId ?? activeAccountId;
    const accountName = useAccountName(accountId);
    return (
      <RequirePermissions flags={ORGANIZATION_MANAGE_FLAGS}>
        <CreateOrganizationPage
          accountId={accountId}
          accountName={accountName}
          listAccountId={listAccountId}
        />
      </RequirePermissions>
    );
  },
});
