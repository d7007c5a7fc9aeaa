import { createFileRoute, redirect } from '@tanstack/react-router';
import { EnrollmentPage } from '../features/enrollment/components/enrollment-page.tsx';
import { enrollmentByCodeQueryOptions } from '../features/enrollment/queries.ts';
import { ApiError } from '../lib/api-client.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

/**
 * Public: the mailed code is the credential (overview §2, §4). An enrollment that cannot be opened,
 * or whose certificate was issued already, leads to the link error page with the lowercased status.
 */
export const Route = createFileRoute('/enrollment/$enrollmentId/$enrollmentCode')({
  loader: async ({ context, params }) => {
    const catalogs = Promise.all([loadAreaCatalog('enrollment'), loadAreaCatalog('trust-agent')]);
    const [queryClient] = await Promise.all([context.loadQueryClient(), catalogs]);
    try {
      const enrollment = await queryClient.fetchQuery(
        enrollmentByCodeQueryOptions(params.enrollmentId, params.enrollmentCode),
      );
      if (enrollment.status !== 'pending') {
        throw redirect({ to: '/clientAuthLoginVerificationError/$errorCode', params: { errorCode: '409' } });
      }
      return enrollment;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw redirect({
        to: '/clientAuthLoginVerificationError/$errorCode',
        params: { errorCode: String(error.status).toLowerCase() },
        replace: true,
      });
    }
  },
  component: function EnrollmentRoute() {
    const { enrollmentCode } = Route.useParams();
    const enrollment = Route.useLoaderData();
    return <EnrollmentPage key={enrollmentCode} enrollment={enrollment} code={enrollmentCode} />;
  },
});
