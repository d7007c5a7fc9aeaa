import { CONSOLE_BASE_PATH, TRUST_AGENT_SIGN_IN_DONE_PATH } from '../../../contract/paths.ts';
import { decodeSignInState, type SignInState } from '../../../contract/schemas/identity.ts';
import { routerHref, safeReturnPath } from '../../lib/return-path.ts';
import type { SessionController } from '../../lib/session.ts';

/**
 * Where a sign-in leads: the state's return path, or, when the trust agent asked for the sign-in,
 * the page that says so and connects the agent (it passes the return path on).
 */
export function pathAfterSignIn(state: SignInState): string {
  const returnPath = safeReturnPath(state.return_path);
  if (!state.trust_agent_request) return returnPath;
  return `${TRUST_AGENT_SIGN_IN_DONE_PATH}?${new URLSearchParams({ return_path: returnPath })}`;
}

/**
 * Where a signed-in user who opens the sign-in page (a bookmark, a new tab) goes instead of signing in
 * again: where the state leads, as a router path; null for an anonymous visitor, or one without a
 * connection, who stays. A page load drops the token in memory, so the session is tried through the
 * refresh cookie first.
 */
export async function signedInDestination(
  session: SessionController,
  encodedState: string,
): Promise<string | null> {
  if (!(await session.ensure())) return null;
  const target = pathAfterSignIn(decodeSignInState(encodedState) ?? {});
  // A state that leads back to sign-in would send a signed-in user round in a circle.
  const away = target.startsWith(`${CONSOLE_BASE_PATH}/login`) ? safeReturnPath(null) : target;
  return routerHref(away);
}
