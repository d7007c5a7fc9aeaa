import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentLinkErrorPage } from '../features/enrollment/components/enrollment-link-error-page.tsx';
import { enrollmentLinkErrorSearchSchema } from '../features/enrollment/schemas.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';

// Public: where an enrollment link that cannot be opened leads, with the failure's lowercased status.
export const Route = createFileRoute('/clientAuthLoginVerificationError/$errorCode')({
  validateSearch: enrollmentLinkErrorSearchSchema,
  loader: () => loadAreaCatalog('enrollment'),
  component: function EnrollmentLinkErrorRoute() {
    const { errorCode } = Route.useParams();
    const { reason, retry_at } = Route.useSearch();
    return <EnrollmentLinkErrorPage errorCode={errorCode} reason={reason} retryAt={retry_at} />;
  },
});
