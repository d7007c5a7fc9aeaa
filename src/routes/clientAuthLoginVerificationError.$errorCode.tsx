import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentLinkErrorPage } from '../features/enrollment/components/enrollment-link-error-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

// Public: where an enrollment link that cannot be opened leads, with the failure's lowercased status.
export const Route = createFileRoute('/clientAuthLoginVerificationError/$errorCode')({
  loader: () => loadAreaCatalog('enrollment'),
  component: function EnrollmentLinkErrorRoute() {
    const { errorCode } = Route.useParams();
    return <EnrollmentLinkErrorPage errorCode={errorCode} />;
  },
});
