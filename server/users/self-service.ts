import type { Hono } from 'hono';
import { APPLICATIONS } from '../../contract/applications.ts';
import { APPLICATION_CODES } from '../../contract/permissions.ts';
import {
  agreementSchema,
  defaultManagerQuerySchema,
  userIdParamsSchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, changesNothing, updateDetails } from '../audit/change.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField, validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { licensedApplications } from '../licence/index.ts';
import { recordUserChange } from '../resources/user-change.ts';
import { assertMayChangeUser } from '../role-assignments/index.ts';
import { applicationRoles } from './repository.ts';

/**
 * What a person sets for itself (decision 018 §3.2, decision 035 §1): the application the console opens first,
 * and acceptance of the terms. An administrator may set someone else's default application like
 * their locale (manage permission, G4); the agreement is accepted by the person alone.
 */
export function userSelfServiceRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db } = deps;
  const authenticated = requireAuth(deps);
  const userParams = validateParams(userIdParamsSchema);

  app.put(
    '/user/:id/defaultManager',
    authenticated,
    userParams,
    validateQuery(defaultManagerQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { id } = c.req.valid('param');
      const { appUrl } = c.req.valid('query');
      await db.transaction().execute(async (trx) => {
        const target = await findReachableUser(trx, principal, id, true);
        if (!target) throw new ApiError(404, USER_NOT_FOUND);
        if (target.id !== principal.userId) {
          assertUserAccess(principal, accessScopeOf(target.access_scope), 'manage');
          await assertMayChangeUser(trx, principal, [target.id]);
        }
        // An application's context, in which the user holds a role today.
        const licensed = await licensedApplications(trx, deps.now());
        const held = new Set((await applicationRoles(trx, target.id, licensed)).map((app) => app.appCode));
        const appCode = APPLICATION_CODES.find(
          (code) => APPLICATIONS[code].context === appUrl && held.has(code),
        );
        if (appCode === undefined) throw invalidField('appUrl', 'invalidValue');
        const stored = await trx
          .selectFrom('users')
          .select('default_application')
          .where('id', '=', target.id)
          .executeTakeFirstOrThrow();
        const details = updateDetails(
          { default_application: stored.default_application },
          { default_application: appCode },
          ['default_application'],
        );
        if (changesNothing(details)) return;
        await recordUserChange(trx, c, deps, target, { default_application: appCode }, details);
      });
      return c.body(null, 204);
    },
  );

  app.put('/user/:id/agreement', authenticated, userParams, validateJson(agreementSchema), async (c) => {
    const principal = c.var.principal;
    const { id } = c.req.valid('param');
    const { locale } = c.req.valid('json');
    await db.transaction().execute(async (trx) => {
      const target = await findReachableUser(trx, principal, id, true);
      if (!target) throw new ApiError(404, USER_NOT_FOUND);
      if (target.id !== principal.userId) {
        throw new ApiError(403, 'Only the person themselves accepts the terms.', { code: 'ownUserOnly' });
      }
      const now = deps.now();
      await trx
        .updateTable('users')
        .set({ agreement_accepted_at: now, agreement_locale: locale })
        .where('id', '=', target.id)
        .execute();
      await auditChange(trx, c, deps, {
        action: 'TERMS_AND_CONDITIONS',
        resourceType: 'USER',
        resourceId: target.id,
        accountId: target.primary_account_id,
        details: { locale },
      });
    });
    return c.body(null, 204);
  });
}
