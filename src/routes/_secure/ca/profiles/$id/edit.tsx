import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { PROFILE_MANAGE_FLAGS } from '../../../../../features/certificate-profiles/access.ts';
import { ProfileEditPage } from '../../../../../features/certificate-profiles/components/profile-form-page.tsx';
import { ProfilesErrorPage } from '../../../../../features/certificate-profiles/components/profiles-error-page.tsx';
import { profileQueryOptions } from '../../../../../features/certificate-profiles/queries.ts';

export const Route = createFileRoute('/_secure/ca/profiles/$id/edit')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(profileQueryOptions(params.id));
  },
  errorComponent: ProfilesErrorPage,
  component: function ProfileEditRoute() {
    return (
      <RequirePermissions flags={PROFILE_MANAGE_FLAGS}>
        <ProfileEditPage id={Route.useParams().id} />
      </RequirePermissions>
    );
  },
});
