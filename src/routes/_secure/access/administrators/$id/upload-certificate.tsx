import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { UploadCertificatePage } from '../../../../../features/client-auth/components/upload-certificate-page.tsx';
import { AdministratorsErrorPage } from '../../../../../features/users/components/administrators-error-page.tsx';
import { userQueryOptions } from '../../../../../features/users/queries.ts';

// One certificate file for a person (O-06); the server decides who may (decision 019).
export const Route = createFileRoute('/_secure/access/administrators/$id/upload-certificate')({
  loader: ({ context: { screenData }, params }) => screenData.load(userQueryOptions(params.id)),
  errorComponent: AdministratorsErrorPage,
  component: function AdministratorUploadCertificateRoute() {
    const { id } = Route.useParams();
    const { data: user } = useSuspenseQuery(userQueryOptions(id));
    return <UploadCertificatePage userId={id} userName={user.user_name} />;
  },
});
