import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { PROFILE_READ_FLAGS } from '../../../../../features/certificate-profiles/access.ts';
import { ProfileDetailsPage } from '../../../../../features/certificate-profiles/components/profile-details-page.tsx';
import { ProfilesErrorPage } from '../../../../../features/certificate-profiles/components/profiles-error-page.tsx';
import { profileQueryOptions } from '../../../../../features/certificate-profiles/queries.ts';

export const Route = createFileRoute('/_secure/ca/profiles/$id/')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(profileQueryOptions(params.id));
  },
  errorComponent: ProfilesErrorPage,
  component: function ProfileDetailsRoute() {
    return (
      <RequirePermissions flags={[]} anyOf={PROFILE_READ_FLAGS}>
        <ProfileDetailsPage id={Route.useParams().id} />
      </RequirePermissions>
    );
  },
});
