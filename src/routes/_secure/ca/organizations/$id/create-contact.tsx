import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ORGANIZATION_MANAGE_FLAGS } from '../../../../../features/organizations/access.ts';
import { CreateContactPage } from '../../../../../features/organizations/components/create-contact-page.tsx';
import { OrganizationsErrorPage } from '../../../../../features/organizations/components/organizations-error-page.tsx';
import { organizationQueryOptions } from '../../../../../features/organizations/queries.ts';

export const Route = createFileRoute('/_secure/ca/organizations/$id/create-contact')({
  loader: ({ context: { screenData }, params }) => screenData.load(organizationQueryOptions(params.id)),
  errorComponent: OrganizationsErrorPage,
  component: function CreateContactRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={ORGANIZATION_MANAGE_FLAGS}>
        <CreateContactPage organizationId={id} />
      </RequirePermissions>
    );
  },
});
