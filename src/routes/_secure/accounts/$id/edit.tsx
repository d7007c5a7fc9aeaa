import { createFileRoute } from '@tanstack/react-router';
import { AccountDetailsLoadError } from '../../../../features/accounts/components/account-details-load-error.tsx';
import { AccountEditPage } from '../../../../features/accounts/components/account-edit-page.tsx';
import { accountQueryOptions } from '../../../../features/accounts/queries.ts';
import { profileQueryOptions } from '../../../../lib/current-user.ts';

export const Route = createFileRoute('/_secure/accounts/$id/edit')({
  // Account scope is shown the no-access view without asking for the account. Prefetch, not ensure:
  // the page checks permissions before it reads the account or its error.
  loader: async ({ context: { screenData }, params }) => {
    const profile = await screenData.load(profileQueryOptions());
    if (profile.access_scope !== 'account') await screenData.preloadCurrent(accountQueryOptions(params.id));
  },
  errorComponent: AccountDetailsLoadError,
  component: AccountEditRoute,
});

function AccountEditRoute() {
  const { id } = Route.useParams();
  return <AccountEditPage accountId={id} />;
}
