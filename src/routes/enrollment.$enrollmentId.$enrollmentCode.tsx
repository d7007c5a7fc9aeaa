import { QueryClientProvider } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { ClientCertificatePage } from '../features/enrollment/components/client-certificate-page.tsx';
import { EnrollmentPage } from '../features/enrollment/components/enrollment-page.tsx';
import {
  enrollmentByCodeQueryOptions,
  enrollmentClientAuthQueryOptions,
} from '../features/enrollment/queries.ts';
import { enrollmentLinkErrorOf } from '../features/enrollment/schemas.ts';
import { ApiError } from '../lib/api-client.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

/**
 * Public: the mailed code is the credential (overview §2, §4). An enrollment that cannot be opened,
 * or whose certificate was issued already, leads to the link error page with the lowercased status
 * and the answer's reason (decision 031), unless the used link still offers the client certificate
 * an administrator asked for (decision 033).
 */
export const Route = createFileRoute('/enrollment/$enrollmentId/$enrollmentCode')({
  loader: async ({ context, params }) => {
    const catalogs = Promise.all([
      loadAreaCatalog('enrollment'),
      loadAreaCatalog('trust-agent'),
      loadAreaCatalog('client-certificate'),
    ]);
    const [queryClient] = await Promise.all([context.loadQueryClient(), catalogs]);
    try {
      const enrollment = await queryClient.fetchQuery(
        enrollmentByCodeQueryOptions(params.enrollmentId, params.enrollmentCode),
      );
      if (enrollment.status !== 'pending') {
        throw redirect({
          to: '/clientAuthLoginVerificationError/$errorCode',
          params: { errorCode: '409' },
          search: { reason: enrollment.status === 'cancelled' ? 'enrollmentCancelled' : 'enrollmentUsed' },
        });
      }
      return { page: 'enrollment' as const, enrollment, queryClient };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'enrollmentUsed') {
        const offer = await queryClient
          .fetchQuery(enrollmentClientAuthQueryOptions(params.enrollmentId, params.enrollmentCode))
          .catch(() => null);
        if (offer) return { page: 'clientCertificate' as const, offer, queryClient };
      }
      const { errorCode, search } = enrollmentLinkErrorOf(error.status, error.code, error.retryAfterSeconds);
      throw redirect({
        to: '/clientAuthLoginVerificationError/$errorCode',
        params: { errorCode },
        search,
        replace: true,
      });
    }
  },
  component: function EnrollmentRoute() {
    const { enrollmentId, enrollmentCode } = Route.useParams();
    const loaded = Route.useLoaderData();
    // The page's own queries (the client certificate asked for the enrollee) use the query client.
    return (
      <QueryClientProvider client={loaded.queryClient}>
        {loaded.page === 'clientCertificate' ? (
          <ClientCertificatePage enrollmentId={enrollmentId} code={enrollmentCode} offer={loaded.offer} />
        ) : (
          <EnrollmentPage key={enrollmentCode} enrollment={loaded.enrollment} code={enrollmentCode} />
        )}
      </QueryClientProvider>
    );
  },
});
