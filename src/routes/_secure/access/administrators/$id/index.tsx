import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenPage } from '../../../../../components/forbidden-page.tsx';
import { ApiTokensSection } from '../../../../../features/api-tokens/components/api-tokens-section.tsx';
import { ClientAuthLink } from '../../../../../features/client-auth/components/client-auth-link.tsx';
import { PersonEnrollments } from '../../../../../features/enrollments/components/enrollments-sections.tsx';
import { USER_READ_FLAGS } from '../../../../../features/users/access.ts';
import { AdministratorDetailsPage } from '../../../../../features/users/components/administrator-details-page.tsx';
import { AdministratorsErrorPage } from '../../../../../features/users/components/administrators-error-page.tsx';
import { userApplicationsQueryOptions, userQueryOptions } from '../../../../../features/users/queries.ts';
import { useProfile } from '../../../../../lib/current-user.ts';
import { usePermissionFlags } from '../../../../../lib/permissions.tsx';

export const Route = createFileRoute('/_secure/access/administrators/$id/')({
  loader: async ({ context: { screenData }, params }) => {
    // The applications section shows its own failure; the user's is the page's (404, 403).
    void screenData.preload(userApplicationsQueryOptions(params.id));
    await screenData.load(userQueryOptions(params.id));
  },
  errorComponent: AdministratorsErrorPage,
  component: function AdministratorDetailsRoute() {
    const { id } = Route.useParams();
    const profile = useProfile();
    const permissions = usePermissionFlags();
    const { data: user } = useSuspenseQuery(userQueryOptions(id));
    // Oneself without any user permission, through the profile redirect (decision 039 §10).
    const own = id === profile.id;
    const allowed = own || USER_READ_FLAGS.some((flag) => permissions[flag]);
    if (!allowed) return <ForbiddenPage />;
    // One's own tokens only: nobody makes or changes another person's (decision 018 G7).
    return (
      <AdministratorDetailsPage
        userId={id}
        apiTokens={own ? <ApiTokensSection owner={{ kind: 'person', id }} /> : null}
        clientAuth={<ClientAuthLink owner={{ kind: 'person', id }} />}
        enrollments={<PersonEnrollments userId={id} accountId={user.primary_account_id} />}
      />
    );
  },
});
