import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/account-setup/components/reset-password-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

// Public: the mailed code is the credential, whoever is signed in in this browser.
export const Route = createFileRoute('/reset-password/$userId/$code')({
  loader: () => loadAreaCatalog('public-pages'),
  component: function ResetPasswordRoute() {
    const { userId, code } = Route.useParams();
    return <ResetPasswordPage key={code} userId={userId} code={code} />;
  },
});
