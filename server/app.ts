import { Hono } from 'hono';
import { UI_API_V1 } from '../contract/paths.ts';
import type { AppDeps } from './app-deps.ts';
import type { AppEnv } from './http/app-env.ts';
import { isApiPath, notFound, onError } from './http/errors.ts';
import { securityHeaders } from './http/security-headers.ts';
import { limitBodySize } from './http/validate.ts';
import { licenceRoutes } from './licence/routes.ts';
import { setupRoutes } from './setup/routes.ts';

/** The platform API and the console it serves, as one Hono application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound(notFound);
  app.use(securityHeaders);
  app.use(async (c, next) => (isApiPath(c.req.path) ? limitBodySize(c, next) : next()));

  app.route(UI_API_V1, setupRoutes(deps));
  app.route(UI_API_V1, licenceRoutes(deps));
  return app;
}
