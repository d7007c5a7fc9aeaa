import { Hono } from 'hono';
import type { LicenceCheck } from '../../contract/schemas/licence.ts';
import { licenceCheckSchema } from '../../contract/schemas/licence.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { currentLicenceStatus } from './store.ts';

/** `GET license/status`, public: the console asks it after sign-in and during setup. */
export function licenceRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    '/license/status',
    describeOperation({
      tag: 'Licence',
      summary: 'Status of the installed licence, and where to go when it has expired.',
      success: { status: 200, description: 'Licence status', schema: licenceCheckSchema },
      failures: [],
    }),
    async (c) => {
      const status = await currentLicenceStatus(deps.db, deps.now());
      const body: LicenceCheck = {
        status,
        redirect_url: status === 'EXPIRED' ? deps.config.licenceExpiredRedirectUrl : null,
      };
      return c.json(body);
    },
  );
}
