import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { VerifyPage } from '../features/account-setup/components/verify-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

// Public: the mailed code is the credential, whoever is signed in in this browser.
export const Route = createFileRoute('/verify/$userId/$code')({
  validateSearch: v.object({ new: v.optional(v.union([v.string(), v.number()])) }),
  loader: () => loadAreaCatalog('public-pages'),
  component: function VerifyRoute() {
    const { userId, code } = Route.useParams();
    const search = Route.useSearch();
    return <VerifyPage key={code} userId={userId} code={code} isNew={String(search.new ?? '') === '1'} />;
  },
});
