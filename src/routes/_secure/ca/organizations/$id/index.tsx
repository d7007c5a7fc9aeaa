import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ORGANIZATION_READ_FLAGS } from '../../../../../features/organizations/access.ts';
import { OrganizationDetailPage } from '../../../../../features/organizations/components/organization-detail-page.tsx';
import { OrganizationsErrorPage } from '../../../../../features/organizations/components/organizations-error-page.tsx';
import {
  contactListQueryOptions,
  organizationQueryOptions,
} from '../../../../../features/organizations/queries.ts';

export const Route = createFileRoute('/_secure/ca/organizations/$id/')({
  loader: ({ context: { screenData }, params }) =>
    Promise.all([
      screenData.load(organizationQueryOptions(params.id)),
      screenData.load(contactListQueryOptions(params.id)),
    ]),
  errorComponent: OrganizationsErrorPage,
  component: function OrganizationRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={[]} anyOf={ORGANIZATION_READ_FLAGS}>
        <OrganizationDetailPage organizationId={id} />
      </RequirePermissions>
    );
  },
});
