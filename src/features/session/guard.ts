import { redirect } from '@tanstack/react-router';
import { CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import { decodeSignInState } from '../../../contract/schemas/identity.ts';
import { routerHref, safeReturnPath } from '../../lib/return-path.ts';
import type { SessionController } from '../../lib/session.ts';

/**
 * A signed-in user who opens the sign-in page (a bookmark, a new tab) goes where the state leads
 * instead of signing in again. A page load drops the token in memory, so the session is tried
 * through the refresh cookie first; an anonymous visitor, or one without a connection, stays.
 */
export async function leaveSignInWhenSignedIn(
  session: SessionController,
  encodedState: string,
): Promise<void> {
  if (!(await session.ensure())) return;
  const target = safeReturnPath(decodeSignInState(encodedState)?.return_path);
  // A state that leads back to sign-in would send a signed-in user round in a circle.
  const away = target.startsWith(`${CONSOLE_BASE_PATH}/login`) ? safeReturnPath(null) : target;
  throw redirect({ href: routerHref(away), replace: true });
}
