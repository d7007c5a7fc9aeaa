import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { TrustAgentSignInPage } from '../features/session/components/trust-agent-sign-in-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';
import { safeReturnPath } from '../lib/return-path.ts';

/** Public (overview §2): the sign-in that brought the user here may have been the agent's, not the console's. */
export const Route = createFileRoute('/dta-sign-in-success-info')({
  validateSearch: v.object({ return_path: v.optional(v.pipe(v.string(), v.maxLength(2000))) }),
  loader: () => loadAreaCatalog('trust-agent'),
  component: function TrustAgentSignInRoute() {
    const { return_path } = Route.useSearch();
    return <TrustAgentSignInPage returnPath={safeReturnPath(return_path)} />;
  },
});
