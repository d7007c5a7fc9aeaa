import { createFileRoute, redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { SignInPage } from '../features/session/components/sign-in-page.tsx';
import { leaveSignInWhenSignedIn } from '../features/session/guard.ts';
import { prefetchSignInPage } from '../features/session/queries.ts';
import { redirectToSetupWhileUnconfigured, useLeaveForOpenSetup } from '../features/setup/guard.ts';

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ state: v.optional(v.string()) }),
  // Without a state the console's home decides (B-09): a signed-in user lands there, anyone else
  // comes back here with a state that carries the return path, so this cannot loop.
  beforeLoad: async ({ search, context }) => {
    if (!search.state) throw redirect({ to: '/' });
    // Everything the form waits for starts at once, not one after the other: the page's code (split
    // off by the router, which would fetch it only after this guard), the footer and the languages, the session check
    // and the setup status (docs/decisions/026-start-up-round-trips.md). A signed-in visitor leaves
    // first; the setup status decides only for anyone else.
    void Route.options.component?.preload?.();
    prefetchSignInPage();
    const unconfigured = redirectToSetupWhileUnconfigured();
    unconfigured.catch(() => undefined);
    await leaveSignInWhenSignedIn(context.session, search.state);
    await unconfigured;
  },
  component: function LoginRoute() {
    const { state = '' } = Route.useSearch();
    // The guard may not have waited for the setup status (a platform this browser saw set up).
    useLeaveForOpenSetup();
    return <SignInPage key={state} encodedState={state} />;
  },
});
