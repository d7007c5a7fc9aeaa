import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ApiTokensSection } from '../../../../../features/api-tokens/components/api-tokens-section.tsx';
import { ClientAuthLink } from '../../../../../features/client-auth/components/client-auth-link.tsx';
import {
  SERVICE_USER_MANAGE_FLAGS,
  SERVICE_USER_READ_FLAGS,
} from '../../../../../features/service-users/access.ts';
import { ServiceUserDetailsPage } from '../../../../../features/service-users/components/service-user-details-page.tsx';
import { ServiceUsersErrorPage } from '../../../../../features/service-users/components/service-users-error-page.tsx';
import { serviceUserQueryOptions } from '../../../../../features/service-users/queries.ts';
import { usePermissionFlags } from '../../../../../lib/permissions.tsx';

export const Route = createFileRoute('/_secure/access/service-user/$id/')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(serviceUserQueryOptions(params.id));
  },
  errorComponent: ServiceUsersErrorPage,
  component: function ServiceUserDetailsRoute() {
    const { id } = Route.useParams();
    const permissions = usePermissionFlags();
    const serviceUser = useQuery(serviceUserQueryOptions(id));
    // Its tokens are made and revoked by whoever may change it (decision 018 G7).
    const manages = SERVICE_USER_MANAGE_FLAGS.every((flag) => permissions[flag]);
    return (
      <RequirePermissions flags={[]} anyOf={SERVICE_USER_READ_FLAGS}>
        <ServiceUserDetailsPage
          id={id}
          apiTokens={
            manages ? (
              <ApiTokensSection
                owner={{ kind: 'service', id }}
                ownerEndDate={serviceUser.data?.end_date ?? null}
              />
            ) : null
          }
          clientAuth={<ClientAuthLink owner={{ kind: 'service', id }} />}
        />
      </RequirePermissions>
    );
  },
});
