import { redirect, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import { encodeSignInState } from '../../../contract/schemas/identity.ts';
import type { SetupStatus } from '../../../contract/schemas/setup.ts';
import { ApiError } from '../../lib/api-client.ts';
import { leaveTo } from '../../lib/external-navigation.ts';
import { licenceCheck } from '../../lib/licence-check.ts';
import { usePublicResource } from '../../lib/public-data.ts';
import { routerHref } from '../../lib/return-path.ts';
import type { SessionController } from '../../lib/session.ts';
import { configuredAsLastSeen, setupStatus } from './queries.ts';

/**
 * Where a setup page must not stay (overview §4): signed in → accounts; a redirect from the licence
 * check → there; an administrator already exists → sign-in. Answers the status for the page. A page
 * load drops the token in memory, so "signed in" is asked of the refresh cookie too.
 */
export async function guardSetupPage(session: SessionController) {
  // Asked together with the session check rather than after it: one round trip before the page.
  const answers = Promise.all([setupStatus.read(), licenceCheck.read()]);
  answers.catch(() => undefined);
  if (await session.ensure()) throw redirect({ to: '/accounts', replace: true });
  const [status, licence] = await answers;
  if (licence.redirect_url) {
    if (licence.redirect_url.startsWith(`${CONSOLE_BASE_PATH}/`)) {
      throw redirect({ href: routerHref(licence.redirect_url), replace: true });
    }
    leaveTo(licence.redirect_url, ACCOUNTS_LIST_PATH);
  }
  if (status.administrator_exists) {
    throw redirect({
      to: '/login',
      search: { state: encodeSignInState({ return_path: ACCOUNTS_LIST_PATH }) },
      replace: true,
    });
  }
  return status;
}

/** The first setup step still open, for a platform without an administrator. */
function openSetupStep(status: SetupStatus) {
  return status.licence_installed ? ('/setup-user' as const) : ('/setup-license' as const);
}

/**
 * A platform without an administrator has nobody to sign in: send the visitor to the setup step
 * still open instead of a sign-in form that cannot succeed. Without a connection the status cannot
 * be asked, and the sign-in page shows all the same (signing out offline leads there); signing in
 * then says the server cannot be reached. A server that answers with an error still fails the page.
 *
 * A browser that has seen the platform set up does not wait for the answer, so a repeat visit's form
 * needs no round trip (docs/decisions/026-start-up-round-trips.md); the page then leaves for setup if
 * the answer says otherwise (`useLeaveForOpenSetup`), and an error is for signing in to report.
 */
export async function redirectToSetupWhileUnconfigured() {
  const asking = setupStatus.read();
  if (configuredAsLastSeen()) {
    asking.catch(() => undefined);
    return;
  }
  const status = await asking.catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    return null;
  });
  if (status === null || status.administrator_exists) return;
  throw redirect({ to: openSetupStep(status), replace: true });
}

/** Leaves the page for the open setup step when the status, however late, says there is one. */
export function useLeaveForOpenSetup(): void {
  const { data } = usePublicResource(setupStatus);
  const navigate = useNavigate();
  useEffect(() => {
    if (data && !data.administrator_exists) void navigate({ to: openSetupStep(data), replace: true });
  }, [data, navigate]);
}
