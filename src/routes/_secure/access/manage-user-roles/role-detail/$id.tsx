import { createFileRoute } from '@tanstack/react-router';
import { RoleDetailsPage } from '../../../../../features/roles/components/role-details-page.tsx';
import { RolesErrorPage, RolesGate } from '../../../../../features/roles/components/roles-gate.tsx';
import { roleQueryOptions } from '../../../../../features/roles/queries.ts';

export const Route = createFileRoute('/_secure/access/manage-user-roles/role-detail/$id')({
  loader: ({ context: { screenData }, params }) => screenData.load(roleQueryOptions(params.id)),
  errorComponent: RolesErrorPage,
  component: function RoleDetailRoute() {
    const { id } = Route.useParams();
    return (
      <RolesGate>
        <RoleDetailsPage roleId={id} />
      </RolesGate>
    );
  },
});
