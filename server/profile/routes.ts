import { Hono } from 'hono';
import * as v from 'valibot';
import { PLATFORM_LOCALES } from '../../contract/locales.ts';
import { listSchema } from '../../contract/schemas/common.ts';
import {
  type Application,
  applicationSchema,
  type Profile,
  permissionEntrySchema,
  permissionsQuerySchema,
  profileSchema,
  userApplicationsQuerySchema,
} from '../../contract/schemas/profile.ts';
import type { AppDeps } from '../app-deps.ts';
import { updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { forbidden } from '../authorization/permissions.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { licensedApplications } from '../licence/index.ts';
import { recordUserChange } from '../resources/user-change.ts';
import { applicationOf, applicationRoles } from '../users/index.ts';
import { findProfileUser, userAccounts } from './repository.ts';

const localeParamsSchema = v.object({
  id: v.pipe(v.string(), v.maxLength(64, 'tooLong')),
  locale: v.picklist(PLATFORM_LOCALES, 'invalidLocale'),
});

function permissionEntries(principal: Principal): { name: string }[] {
  return [...principal.permissions].sort().map((name) => ({ name }));
}

/** The signed-in user's own data (/account/ui-api/v1), described in docs/api.md. */
export function profileRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use('/user/*')`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);

  /** 404 rather than 403 for an account out of reach, so the answer does not confirm it exists. */
  async function assertReachable(principal: Principal, accountId: string | undefined): Promise<void> {
    if (accountId !== undefined && !(await canSeeAccount(db, principal, accountId))) {
      throw new ApiError(404, ACCOUNT_NOT_FOUND);
    }
  }

  app.get(
    '/profile',
    describeOperation({
      tag: 'Profile',
      summary:
        "The signed-in user's profile, accounts, permissions and applications; ETag (and `version`) is the user's version, on which the own profile's PUT user/{id} is made.",
      success: { status: 200, description: 'Profile', schema: profileSchema, etag: true },
      failures: [],
    }),
    authenticated,
    async (c) => {
      const principal = c.var.principal;
      const [user, accounts, licensed] = await Promise.all([
        findProfileUser(db, principal.userId),
        userAccounts(db, principal),
        licensedApplications(db, deps.now()),
      ]);
      const applications = await applicationRoles(db, principal.userId, licensed);
      const profile: Profile = {
        id: user.id,
        access_scope: principal.accessScope,
        primary_account_id: principal.primaryAccountId,
        accounts,
        permissions: permissionEntries(principal),
        // The platform has no OneLogin connection: no user has an identity there.
        has_onelogin_id: false,
        onelogin_url: null,
        locale: user.locale,
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        user_name: user.user_name,
        date_format: user.date_format,
        applications: applications.map(({ appCode, roles }) => ({
          app_code: appCode,
          roles: roles.map(({ name, code }) => ({ name, code })),
        })),
        phone: user.phone,
        aliases: user.aliases,
        saml_username: user.saml_username,
        oidc_username: user.oidc_username,
        email_verified: user.email_verified_at !== null,
        default_application: user.default_application,
        version: user.version,
      };
      // The version the own profile's edit is made on (PUT user/{id} requires If-Match).
      c.header('ETag', entityTag(user.version));
      return c.json(profile);
    },
  );

  app.get(
    '/permission',
    describeOperation({
      tag: 'Profile',
      summary: "The caller's permission names in a scope and account.",
      success: { status: 200, description: 'Permissions', schema: listSchema(permissionEntrySchema) },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(permissionsQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { accessScope, accountId } = c.req.valid('query');
      if (accessScope !== principal.accessScope) {
        throw new ApiError(
          403,
          `You do not have permission to view permissions of the ${accessScope} scope.`,
        );
      }
      await assertReachable(principal, accountId);
      const items = permissionEntries(principal);
      return c.json({ items, total: items.length });
    },
  );

  app.get(
    '/user/applications',
    describeOperation({
      tag: 'Profile',
      summary: 'Applications the caller can open.',
      success: { status: 200, description: 'Applications', schema: listSchema(applicationSchema) },
      failures: [400],
    }),
    authenticated,
    validateQuery(userApplicationsQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { accountId } = c.req.valid('query');
      await assertReachable(principal, accountId);
      const licensed = await licensedApplications(db, deps.now());
      const applications = await applicationRoles(db, principal.userId, licensed, accountId);
      const items: Application[] = applications.map(({ appCode }) => applicationOf(appCode));
      return c.json({ items, total: items.length });
    },
  );

  app.put(
    '/user/:id/locale/:locale',
    describeOperation({
      tag: 'Profile',
      summary: "Sets a user's language (own user, or manage user).",
      success: { status: 204, description: 'Language changed' },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateParams(localeParamsSchema),
    async (c) => {
      const principal = c.var.principal;
      const { id, locale } = c.req.valid('param');
      const isSelf = id === principal.userId;
      // Someone else's locale needs MANAGE_USER over a user within reach (decision 018 §3.1: an account
      // one was merely added to does not bring its people); one out of reach is answered as missing,
      // so the answer does not confirm it exists. Oneself is always within reach.
      const target = await findReachableUser(db, principal, id, false);
      if (!target) throw new ApiError(404, USER_NOT_FOUND);
      if (!isSelf && !principal.permissions.has('MANAGE_USER')) throw forbidden('MANAGE_USER');

      await db
        .transaction()
        .execute((trx) =>
          recordUserChange(
            trx,
            c,
            deps,
            target,
            { locale },
            updateDetails({ locale: target.locale }, { locale }, ['locale']),
          ),
        );
      return c.body(null, 204);
    },
  );

  return app;
}
