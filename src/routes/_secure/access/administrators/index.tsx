import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { USER_READ_FLAGS } from '../../../../features/users/access.ts';
import { AdministratorsErrorPage } from '../../../../features/users/components/administrators-error-page.tsx';
import { AdministratorsPage } from '../../../../features/users/components/administrators-page.tsx';
import { userListQuery, userListSearchSchema } from '../../../../features/users/list-search.ts';
import { userListQueryOptions } from '../../../../features/users/queries.ts';
import { profileQueryOptions } from '../../../../lib/current-user.ts';

export const Route = createFileRoute('/_secure/access/administrators/')({
  validateSearch: userListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: a failure must not replace the permission check, which decides first
  // between the page and the 403 page. The page shows a failed list in place, with a retry.
  loader: async ({ context: { screenData }, deps }) => {
    const profile = await screenData.load(profileQueryOptions());
    await screenData.preload(userListQueryOptions(userListQuery(deps, profile.access_scope)));
  },
  errorComponent: AdministratorsErrorPage,
  component: function AdministratorsRoute() {
    return (
      <RequirePermissions flags={[]} anyOf={USER_READ_FLAGS}>
        <AdministratorsPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
