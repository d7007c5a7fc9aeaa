import { Hono } from 'hono';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import type { ClientAuthLoginUrl } from '../../contract/schemas/identity.ts';
import { clientAuthLoginUrlSchema } from '../../contract/schemas/identity.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';

/**
 * `GET clientAuthLoginUrl`, public: where the certificate installation page sends a person to sign
 * in with the certificate it just installed (account administration §7). Built on the configured
 * public address, never on the request's Host, so a forged header cannot send them elsewhere.
 */
export function clientAuthLoginRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    '/clientAuthLoginUrl',
    describeOperation({
      tag: 'Sign-in',
      summary:
        "Public: the console's sign-in page on the configured public address, where a person goes after installing an enrollment's certificate.",
      success: { status: 200, description: 'The sign-in address', schema: clientAuthLoginUrlSchema },
      failures: [],
    }),
    (c) => {
      const answer: ClientAuthLoginUrl = {
        url: new URL(`${CONSOLE_BASE_PATH}/login`, deps.config.publicUrl).href,
      };
      return c.json(answer);
    },
  );
}
