import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { ENROLLMENT_READ_FLAGS } from '../../../../features/enrollments/access.ts';
import { EnrollmentsErrorPage } from '../../../../features/enrollments/components/enrollments-error-page.tsx';
import { EnrollmentsPage } from '../../../../features/enrollments/components/enrollments-page.tsx';
import {
  enrollmentListQuery,
  enrollmentListSearchSchema,
} from '../../../../features/enrollments/list-search.ts';
import { enrollmentListQueryOptions } from '../../../../features/enrollments/queries.ts';

export const Route = createFileRoute('/_secure/ca/enrollments/')({
  validateSearch: enrollmentListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(enrollmentListQueryOptions(enrollmentListQuery(deps)));
  },
  errorComponent: EnrollmentsErrorPage,
  component: function EnrollmentsRoute() {
    return (
      <RequirePermissions flags={ENROLLMENT_READ_FLAGS}>
        <EnrollmentsPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
