import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { SERVICE_USER_READ_FLAGS } from '../../../../features/service-users/access.ts';
import { ServiceUsersErrorPage } from '../../../../features/service-users/components/service-users-error-page.tsx';
import { ServiceUsersPage } from '../../../../features/service-users/components/service-users-page.tsx';
import {
  serviceUserListQuery,
  serviceUserListSearchSchema,
} from '../../../../features/service-users/list-search.ts';
import { serviceUserListQueryOptions } from '../../../../features/service-users/queries.ts';

export const Route = createFileRoute('/_secure/access/service-user/')({
  validateSearch: serviceUserListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(serviceUserListQueryOptions(serviceUserListQuery(deps)));
  },
  errorComponent: ServiceUsersErrorPage,
  component: function ServiceUsersRoute() {
    return (
      <RequirePermissions flags={[]} anyOf={SERVICE_USER_READ_FLAGS}>
        <ServiceUsersPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
