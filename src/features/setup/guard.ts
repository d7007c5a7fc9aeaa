import { redirect } from '@tanstack/react-router';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import { encodeSignInState } from '../../../contract/schemas/identity.ts';
import { leaveTo } from '../../lib/external-navigation.ts';
import { licenceCheck } from '../../lib/licence-check.ts';
import { routerHref } from '../../lib/return-path.ts';
import type { SessionController } from '../../lib/session.ts';
import { setupStatus } from './queries.ts';

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
