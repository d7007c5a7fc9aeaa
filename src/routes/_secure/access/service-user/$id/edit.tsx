import { createFileRoute } from '@tanstack/react-router';
import { ServiceUserEditPage } from '../../../../../features/service-users/components/service-user-edit-page.tsx';
import { ServiceUsersErrorPage } from '../../../../../features/service-users/components/service-users-error-page.tsx';
import { serviceUserQueryOptions } from '../../../../../features/service-users/queries.ts';

// Its fields; accounts and roles join the role- page once they can be changed (decision 039 §5).
export const Route = createFileRoute('/_secure/access/service-user/$id/edit')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.preloadCurrent(serviceUserQueryOptions(params.id));
  },
  errorComponent: ServiceUsersErrorPage,
  component: function ServiceUserEditRoute() {
    const { id } = Route.useParams();
    return <ServiceUserEditPage id={id} />;
  },
});
