import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { PROFILE_READ_FLAGS } from '../../../../features/certificate-profiles/access.ts';
import { ProfilesErrorPage } from '../../../../features/certificate-profiles/components/profiles-error-page.tsx';
import { ProfilesListPage } from '../../../../features/certificate-profiles/components/profiles-list-page.tsx';
import {
  profileListQuery,
  profileListSearchSchema,
} from '../../../../features/certificate-profiles/list-search.ts';
import { profileListQueryOptions } from '../../../../features/certificate-profiles/queries.ts';

export const Route = createFileRoute('/_secure/ca/profiles/')({
  validateSearch: profileListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(profileListQueryOptions(profileListQuery(deps)));
  },
  errorComponent: ProfilesErrorPage,
  component: function ProfilesRoute() {
    return (
      <RequirePermissions flags={[]} anyOf={PROFILE_READ_FLAGS}>
        <ProfilesListPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
