import { Trans } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { ForbiddenPage } from '../../../../../components/forbidden-page.tsx';
import { ClientAuthPage } from '../../../../../features/client-auth/components/client-auth-page.tsx';
import { clientAuthListQueryOptions } from '../../../../../features/client-auth/queries.ts';
import { USER_READ_FLAGS } from '../../../../../features/users/access.ts';
import { AdministratorsErrorPage } from '../../../../../features/users/components/administrators-error-page.tsx';
import { userQueryOptions } from '../../../../../features/users/queries.ts';
import { heldPermissions, isStronger, mayManageScope } from '../../../../../features/users/rules.ts';
import { useProfile } from '../../../../../lib/current-user.ts';
import { usePermissionFlags } from '../../../../../lib/permissions.tsx';

// A person's client certificates (O-06): the person, or whoever may read users (decision 019).
export const Route = createFileRoute('/_secure/access/administrators/$id/client-auth')({
  loader: async ({ context: { screenData }, params }) => {
    void screenData.preload(clientAuthListQueryOptions({ kind: 'person', id: params.id }));
    await screenData.load(userQueryOptions(params.id));
  },
  errorComponent: AdministratorsErrorPage,
  component: function AdministratorClientAuthRoute() {
    const { id } = Route.useParams();
    const profile = useProfile();
    const permissions = usePermissionFlags();
    const { data: user } = useSuspenseQuery(userQueryOptions(id));
    const own = id === profile.id;
    if (!own && !USER_READ_FLAGS.some((flag) => permissions[flag])) return <ForbiddenPage />;
    // Who may change the person: themselves, or whoever manages their scope and is not weaker (G4).
    const stronger = isStronger(
      user.permissions.map((permission) => permission.name),
      heldPermissions(profile),
    );
    const manage = own || (mayManageScope(permissions, user.access_scope) && !stronger);
    return (
      <ClientAuthPage
        owner={{ kind: 'person', id }}
        userName={user.user_name}
        manage={manage}
        own={own}
        upload={
          <Link
            to="/access/administrators/$id/upload-certificate"
            params={{ id }}
            className="button button--secondary"
          >
            <Trans>Upload certificate</Trans>
          </Link>
        }
      />
    );
  },
});
