import { SignInPage } from '../features/session/components/sign-in-page.tsx';
import { signedInDestination } from '../features/session/guard.ts';
import { prefetchSignInPage } from '../features/session/queries.ts';
import { openSetupStepWhileUnconfigured, useLeaveForOpenSetup } from '../features/setup/open-step.ts';
import type { SessionController } from '../lib/session.ts';

/*
 * The sign-in page as both of its starts show it: the `/login` route, and main.tsx before the router
 * has loaded (docs/decisions/030-sign-in-without-the-router.md). Not a route of its own (the `-`).
 */

/**
 * Where a visit to the sign-in page goes instead, as a router path, or null to stay. Everything the
 * form waits for starts at once, not one after the other: the footer and the languages, the session
 * check and the setup status (docs/decisions/026-start-up-round-trips.md). A signed-in visitor leaves
 * first; the setup status decides only for anyone else.
 */
export async function signInPageDetour(
  session: SessionController,
  encodedState: string,
): Promise<string | null> {
  prefetchSignInPage();
  const unconfigured = openSetupStepWhileUnconfigured();
  unconfigured.catch(() => undefined);
  return (await signedInDestination(session, encodedState)) ?? (await unconfigured);
}

export function SignInScreen({ encodedState }: { encodedState: string }) {
  // The detour may not have waited for the setup status (a platform this browser saw set up).
  useLeaveForOpenSetup();
  return <SignInPage key={encodedState} encodedState={encodedState} />;
}
