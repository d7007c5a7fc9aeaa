import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { ENROLLMENT_READ_FLAGS } from '../../../../features/enrollments/access.ts';
import { EnrollmentDetailsPage } from '../../../../features/enrollments/components/enrollment-details-page.tsx';
import { EnrollmentsErrorPage } from '../../../../features/enrollments/components/enrollments-error-page.tsx';
import { enrollmentQueryOptions } from '../../../../features/enrollments/queries.ts';

export const Route = createFileRoute('/_secure/ca/enrollments/$id')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(enrollmentQueryOptions(params.id));
  },
  errorComponent: EnrollmentsErrorPage,
  component: function EnrollmentDetailsRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={ENROLLMENT_READ_FLAGS}>
        <EnrollmentDetailsPage id={id} />
      </RequirePermissions>
    );
  },
});
