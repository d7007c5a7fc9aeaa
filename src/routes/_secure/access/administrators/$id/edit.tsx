import { createFileRoute } from '@tanstack/react-router';
import { AdministratorEditPage } from '../../../../../features/users/components/administrator-edit-pages.tsx';
import { AdministratorsErrorPage } from '../../../../../features/users/components/administrators-error-page.tsx';
import { userQueryOptions } from '../../../../../features/users/queries.ts';

export const Route = createFileRoute('/_secure/access/administrators/$id/edit')({
  // The version the server has now: a form on a stale one would only end in 412.
  loader: ({ context: { screenData }, params }) => screenData.preloadCurrent(userQueryOptions(params.id)),
  errorComponent: AdministratorsErrorPage,
  component: function AdministratorEditRoute() {
    return <AdministratorEditPage userId={Route.useParams().id} mode="fields" />;
  },
});
