import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { PROFILE_MANAGE_FLAGS } from '../../../../features/certificate-profiles/access.ts';
import { ProfileCreatePage } from '../../../../features/certificate-profiles/components/profile-form-page.tsx';

export const Route = createFileRoute('/_secure/ca/profiles/create')({
  component: () => (
    <RequirePermissions flags={PROFILE_MANAGE_FLAGS}>
      <ProfileCreatePage />
    </RequirePermissions>
  ),
});
