import { Hono } from 'hono';
import {
  ACCOUNT_API_V1,
  apiPaths,
  CA_API_V1,
  IDENTITY_API_V1,
  isApiPath,
  UI_API_V1,
} from '../contract/paths.ts';
import {
  CLIENT_AUTH_CERTIFICATE_MAX_BYTES,
  CLIENT_AUTH_JSON_BODY_MAX_BYTES,
  CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
} from '../contract/schemas/client-auth.ts';
import { BULK_USER_MAX_BYTES } from '../contract/user-csv.ts';
import { accountFeatureRoutes } from './account-features/routes.ts';
import { accountFederationRoutes, accountRoutes } from './accounts/routes.ts';
import { apiTokenRoutes } from './api-tokens/routes.ts';
import type { AppDeps } from './app-deps.ts';
import { auditLogRoutes } from './audit/routes.ts';
import { bulkImportRoutes } from './bulk-import/routes.ts';
import { certificateAuthorityRoutes } from './ca/routes.ts';
import { accountProfileRoutes, certificateProfileRoutes } from './certificate-profiles/routes.ts';
import { certificateRoutes } from './certificates/routes.ts';
import { clientAuthRoutes } from './client-auth/routes.ts';
import { clientToolRoutes } from './client-tools/routes.ts';
import { enrolleeRoutes } from './enrollments/enrollee-routes.ts';
import { enrollmentRoutes } from './enrollments/routes.ts';
import { featureFlagRoutes } from './feature-flags/routes.ts';
import type { AppEnv } from './http/app-env.ts';
import { warnOfUntrustedProxy } from './http/client-address.ts';
import { compressJsonAnswers } from './http/compression.ts';
import { consoleRoutes } from './http/console-static.ts';
import { notFound, onError } from './http/errors.ts';
import { idempotencyKeys } from './http/idempotency.ts';
import { securityHeaders } from './http/security-headers.ts';
import { limitBodySizeByPath } from './http/validate.ts';
import { callerOf } from './identity/authenticate.ts';
import { licenceRoutes } from './licence/routes.ts';
import { licenceAllocationRoutes } from './licences/routes.ts';
import { localeRoutes } from './locales/routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { organizationRoutes } from './organizations/routes.ts';
import { profileRoutes } from './profile/routes.ts';
import { roleRoutes } from './roles/routes.ts';
import { SERVICE_USER_CERTIFICATE_OWNERS, SERVICE_USER_TOKEN_OWNERS } from './service-users/index.ts';
import { serviceUserRoutes } from './service-users/routes.ts';
import { setupRoutes } from './setup/routes.ts';
import { clientAuthLoginRoutes } from './sign-in/client-auth-login.ts';
import { identityRoutes } from './sign-in/routes.ts';
import { userRoutes } from './users/routes.ts';

/** The platform API and the console it serves, as one Hono application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound(notFound);
  app.use(securityHeaders(deps.config));
  app.use(warnOfUntrustedProxy(deps.config));
  // Outside the idempotency store, so a replayed answer is compressed for the client asking now.
  app.use(compressJsonAnswers());
  const limitBodySize = limitBodySizeByPath(
    { [apiPaths.users.bulkValidate]: { bytes: BULK_USER_MAX_BYTES, words: '4 MiB' } },
    [
      {
        // A client certificate (decision 019): the raw file at most 4 KB, read no further than that.
        path: new RegExp(`^${UI_API_V1}/(user|service-user)/[^/]+/client-auth-certificate$`),
        limit: (mediaType) =>
          mediaType === CLIENT_AUTH_UPLOAD_MEDIA_TYPE
            ? { bytes: CLIENT_AUTH_CERTIFICATE_MAX_BYTES, words: '4 KB' }
            : { bytes: CLIENT_AUTH_JSON_BODY_MAX_BYTES, words: '8 KB' },
      },
    ],
  );
  app.use(async (c, next) => (isApiPath(c.req.path) ? limitBodySize(c, next) : next()));
  // After the body limit, which it relies on when it reads the body of a request with a key.
  app.use(idempotencyKeys(deps, (c) => callerOf(deps, c)));

  app.route(IDENTITY_API_V1, identityRoutes(deps));
  app.route(UI_API_V1, setupRoutes(deps));
  app.route(UI_API_V1, licenceRoutes(deps));
  app.route(UI_API_V1, licenceAllocationRoutes(deps));
  // Before the users routes: its `user/applications` would otherwise be taken for `user/:id`.
  app.route(UI_API_V1, profileRoutes(deps));
  // `user/bulk…` is static: before the users routes' `user/:id`.
  app.route(UI_API_V1, bulkImportRoutes(deps));
  app.route(UI_API_V1, userRoutes(deps));
  app.route(UI_API_V1, apiTokenRoutes(deps));
  app.route(UI_API_V1, serviceUserRoutes(deps));
  // Service users' tokens: the token routes of people, whoever may change the service user as owner.
  app.route(UI_API_V1, apiTokenRoutes(deps, SERVICE_USER_TOKEN_OWNERS));
  app.route(UI_API_V1, clientAuthRoutes(deps));
  app.route(UI_API_V1, clientAuthRoutes(deps, SERVICE_USER_CERTIFICATE_OWNERS));
  app.route(UI_API_V1, roleRoutes(deps));
  app.route(UI_API_V1, organizationRoutes(deps));
  app.route(UI_API_V1, accountRoutes(deps));
  app.route(UI_API_V1, accountFeatureRoutes(deps));
  app.route(UI_API_V1, auditLogRoutes(deps));
  app.route(UI_API_V1, featureFlagRoutes(deps));
  app.route(CA_API_V1, certificateRoutes(deps));
  app.route(UI_API_V1, accountProfileRoutes(deps));
  app.route(CA_API_V1, certificateProfileRoutes(deps));
  app.route(CA_API_V1, certificateAuthorityRoutes(deps));
  app.route(CA_API_V1, clientToolRoutes(deps));
  app.route('/', enrollmentRoutes(deps));
  app.route('/', enrolleeRoutes(deps));
  app.route(ACCOUNT_API_V1, localeRoutes());
  app.route(ACCOUNT_API_V1, clientAuthLoginRoutes(deps));
  app.route(ACCOUNT_API_V1, accountFederationRoutes(deps));
  app.route('/', openApiRoutes(app, deps.config.publicUrl));
  app.route('/', consoleRoutes(deps.config));
  return app;
}
