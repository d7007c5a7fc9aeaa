import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { RoleFormPage } from '../../../../../features/roles/components/role-form-page.tsx';
import { RolesErrorPage, RolesGate } from '../../../../../features/roles/components/roles-gate.tsx';
import { roleQueryOptions } from '../../../../../features/roles/queries.ts';

function EditRole({ id }: { id: string }) {
  const { data: role } = useSuspenseQuery(roleQueryOptions(id));
  // A new version of the role (reloaded after a conflict) starts the form again from it.
  return <RoleFormPage key={role.version} mode={{ kind: 'edit', role }} />;
}

export const Route = createFileRoute('/_secure/access/manage-user-roles/edit-role/$id')({
  loader: ({ context: { screenData }, params }) => screenData.load(roleQueryOptions(params.id)),
  errorComponent: RolesErrorPage,
  component: function EditRoleRoute() {
    const { id } = Route.useParams();
    return (
      <RolesGate manage>
        <EditRole id={id} />
      </RolesGate>
    );
  },
});
