import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ClientAuthPage } from '../../../../../features/client-auth/components/client-auth-page.tsx';
import { clientAuthListQueryOptions } from '../../../../../features/client-auth/queries.ts';
import {
  SERVICE_USER_MANAGE_FLAGS,
  SERVICE_USER_READ_FLAGS,
} from '../../../../../features/service-users/access.ts';
import { ServiceUsersErrorPage } from '../../../../../features/service-users/components/service-users-error-page.tsx';
import { serviceUserQueryOptions } from '../../../../../features/service-users/queries.ts';
import { usePermissionFlags } from '../../../../../lib/permissions.tsx';

// A service user's client certificates (O-09); whoever may change it changes them (decision 019).
export const Route = createFileRoute('/_secure/access/service-user/$id/client-auth')({
  loader: async ({ context: { screenData }, params }) => {
    void screenData.preload(clientAuthListQueryOptions({ kind: 'service', id: params.id }));
    await screenData.load(serviceUserQueryOptions(params.id));
  },
  errorComponent: ServiceUsersErrorPage,
  component: function ServiceUserClientAuthRoute() {
    const { id } = Route.useParams();
    const permissions = usePermissionFlags();
    const { data: serviceUser } = useSuspenseQuery(serviceUserQueryOptions(id));
    const manage = SERVICE_USER_MANAGE_FLAGS.every((flag) => permissions[flag]);
    return (
      <RequirePermissions flags={[]} anyOf={SERVICE_USER_READ_FLAGS}>
        <ClientAuthPage
          owner={{ kind: 'service', id }}
          userName={serviceUser.name}
          own={false}
          manage={manage}
          upload={null}
        />
      </RequirePermissions>
    );
  },
});
