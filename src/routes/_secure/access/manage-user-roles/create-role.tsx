import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { RoleFormPage } from '../../../../features/roles/components/role-form-page.tsx';
import { RolesErrorPage, RolesGate } from '../../../../features/roles/components/roles-gate.tsx';
import { useActiveAccountId } from '../../../../lib/current-user.ts';

/** `account`: the account the role is for; the one selected in the header when absent. */
const roleAccountSearchSchema = v.object({
  account: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))), undefined),
});

export const Route = createFileRoute('/_secure/access/manage-user-roles/create-role')({
  validateSearch: roleAccountSearchSchema,
  errorComponent: RolesErrorPage,
  component: function CreateRoleRoute() {
    const active = useActiveAccountId();
    const accountId = Route.useSearch().account ?? active;
    const navigate = Route.useNavigate();
    const onAccountChange = (account: string) => void navigate({ search: { account }, replace: true });
    return (
      <RolesGate manage>
        <RoleFormPage key={accountId} mode={{ kind: 'create', accountId, onAccountChange }} />
      </RolesGate>
    );
  },
});
