import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { SERVICE_USER_MANAGE_FLAGS } from '../../../../features/service-users/access.ts';
import { ServiceUserCreatePage } from '../../../../features/service-users/components/service-user-create-page.tsx';

// The same page with and without the roles feature (decision 039 §3).
export const Route = createFileRoute('/_secure/access/service-user/create')({
  component: () => (
    <RequirePermissions flags={SERVICE_USER_MANAGE_FLAGS}>
      <ServiceUserCreatePage />
    </RequirePermissions>
  ),
});
