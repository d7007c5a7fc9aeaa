import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ORGANIZATION_MANAGE_FLAGS } from '../../../../../features/organizations/access.ts';
import { EditOrganizationPage } from '../../../../../features/organizations/components/organization-form-pages.tsx';
import { OrganizationsErrorPage } from '../../../../../features/organizations/components/organizations-error-page.tsx';
import { organizationQueryOptions } from '../../../../../features/organizations/queries.ts';

export const Route = createFileRoute('/_secure/ca/organizations/$id/edit')({
  loader: async ({ context: { screenData }, params }) => {
    // The form starts from the version the server has now; a failure is the page's to show.
    await screenData.preloadCurrent(organizationQueryOptions(params.id));
    return screenData.load(organizationQueryOptions(params.id));
  },
  errorComponent: OrganizationsErrorPage,
  component: function EditOrganizationRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={ORGANIZATION_MANAGE_FLAGS}>
        <EditOrganizationPage organizationId={id} />
      </RequirePermissions>
    );
  },
});
