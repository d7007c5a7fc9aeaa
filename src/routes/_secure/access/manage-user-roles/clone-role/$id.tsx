import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { RoleFormPage } from '../../../../../features/roles/components/role-form-page.tsx';
import { RolesErrorPage, RolesGate } from '../../../../../features/roles/components/roles-gate.tsx';
import { roleQueryOptions } from '../../../../../features/roles/queries.ts';
import { useActiveAccountId } from '../../../../../lib/current-user.ts';

function CloneRole({
  id,
  accountId,
  onAccountChange,
}: {
  id: string;
  accountId: string;
  onAccountChange: (accountId: string) => void;
}) {
  const { data: source } = useSuspenseQuery(roleQueryOptions(id));
  return <RoleFormPage key={accountId} mode={{ kind: 'clone', accountId, source, onAccountChange }} />;
}

export const Route = createFileRoute('/_secure/access/manage-user-roles/clone-role/$id')({
  validateSearch: v.object({
    account: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))), undefined),
  }),
  loader: ({ context: { screenData }, params }) => screenData.load(roleQueryOptions(params.id)),
  errorComponent: RolesErrorPage,
  component: function CloneRoleRoute() {
    const { id } = Route.useParams();
    const active = useActiveAccountId();
    const accountId = Route.useSearch().account ?? active;
    const navigate = Route.useNavigate();
    const onAccountChange = (account: string) => void navigate({ search: { account }, replace: true });
    return (
      <RolesGate manage>
        <CloneRole id={id} accountId={accountId} onAccountChange={onAccountChange} />
      </RolesGate>
    );
  },
});
