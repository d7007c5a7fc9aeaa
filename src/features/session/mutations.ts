import type { PlatformLocale } from '../../../contract/locales.ts';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type LoginRequest,
  tokenResponseSchema,
  verifyUserResponseSchema,
} from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { licenceCheck } from '../../lib/licence-check.ts';
import type { SessionController } from '../../lib/session.ts';

interface VerifyUsernameInput {
  username: string;
  state: string;
  language: PlatformLocale;
}

/** The username step (B-15): the identity service answers the next step and a new state. */
export function verifyUsername(input: VerifyUsernameInput) {
  return apiRequest('POST', apiPaths.identity.verifyUser, { body: input, schema: verifyUserResponseSchema });
}

/**
 * The password step: keeps the token in memory, then checks the licence before going on.
 * `meanwhile` starts with the licence check, not after it: the first screen's loading (the shell's
 * data and the page's), which the navigation after a valid licence then finds on its way
 * (docs/decisions/026-start-up-round-trips.md).
 */
export async function signIn(
  session: SessionController,
  credentials: LoginRequest,
  meanwhile: () => void = () => undefined,
) {
  const tokens = await apiRequest('POST', apiPaths.identity.login, {
    body: credentials,
    schema: tokenResponseSchema,
  });
  session.start(tokens);
  const licence = licenceCheck.read({ fresh: true });
  meanwhile();
  return licence;
}
