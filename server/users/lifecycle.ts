import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import {
  userAccessSchema,
  userCreateSchema,
  userDeleteQuerySchema,
  userEnableSchema,
  userIdParamsSchema,
  userSchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, requestActor, updateDetails } from '../audit/change.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import { revokeCertificates } from '../ca/index.ts';
import type { Database } from '../db/schema.ts';
import { cancelPendingEnrollmentsOf } from '../enrollments/index.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { accessScopeOf, revokeUserSessions } from '../identity/sessions.ts';
import type { versionedResource } from '../resources/versioned-resource.ts';
import { assertMayChangeUser, assertSystemAdministratorRemains } from '../role-assignments/index.ts';
import { permitAccessChange, replaceAccess } from './access-change.ts';
import { createPerson } from './create.ts';
import type { RoleToGive } from './grants.ts';
import { userRecord } from './repository.ts';
import { probingUserNames } from './user-name-probes.ts';

type ReachableUser = NonNullable<Awaited<ReturnType<typeof findReachableUser>>>;
type Users = ReturnType<typeof versionedResource<{ id: string }, ReachableUser>>;

/**
 * The user lifecycle of decision 035 §1: creating a person (with the invitation mail), deleting one
 * or several, enabling and disabling, and replacing a user's accounts and roles. Every route runs the
 * order of checks of §3.4 and shares G3–G8 with the role page's assignment (`roles/assignments.ts`).
 */
export function userLifecycleRoutes(app: Hono<AppEnv>, deps: AppDeps, users: Users): void {
  const { db } = deps;
  const authenticated = requireAuth(deps);
  const userParams = validateParams(userIdParamsSchema);

  app.post(
    '/user',
    describeOperation({
      tag: 'Users',
      summary:
        'Creates a person in an account the caller reaches (manage user and manage user of the scope the account gives; roles held by the caller and fitting the user) and queues the invitation mail; 409 inUse for a taken user name.',
      success: { status: 201, description: 'User created', schema: userSchema, etag: true },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateJson(userCreateSchema),
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.var.principal;
      const id = await probingUserNames(db, principal, deps.now(), () =>
        db.transaction().execute((trx) =>
          createPerson(trx, principal, deps, body, {
            actor: requestActor(c, deps.config),
            invitation: true,
          }),
        ),
      );
      deps.mail.nudge();
      const user = await userRecord(db, principal, id, deps.now());
      if (!user) throw new Error('A created user is gone.');
      c.header('Location', apiPaths.users.byId(id));
      c.header('ETag', entityTag(user.version));
      return c.json(user, 201);
    },
  );

  app.delete(
    '/user',
    describeOperation({
      tag: 'Users',
      summary:
        'Deletes up to 100 users the caller may change, all or none (never oneself, a stronger user, or the last system administrator), and revokes the certificates they own (affiliationChanged).',
      success: { status: 204, description: 'Users deleted' },
      failures: [400, 403, 404, 409],
    }),
    authenticated,
    validateQuery(userDeleteQuerySchema),
    async (c) => {
      const { ids } = c.req.valid('query');
      const principal = c.var.principal;
      await db.transaction().execute(async (trx) => {
        const found: ReachableUser[] = [];
        for (const id of new Set(ids)) {
          const user = await findReachableUser(trx, principal, id, true);
          if (!user) throw new ApiError(404, USER_NOT_FOUND, { field: 'ids' });
          found.push(user);
        }
        for (const user of found) assertUserAccess(principal, accessScopeOf(user.access_scope), 'manage');
        await assertMayChangeUser(
          trx,
          principal,
          found.map((user) => user.id),
        );
        await assertSystemAdministratorRemains(
          trx,
          found.map((user) => user.id),
        );
        // Their certificates go with them, each CA's CRL re-signed once for all (decision 019).
        await revokeCertificates(deps, trx, requestActor(c, deps.config), {
          where: 'owner',
          ids: found.map((user) => user.id),
          reason: 'affiliationChanged',
        });
        await cancelPendingEnrollmentsOf(
          deps,
          trx,
          requestActor(c, deps.config),
          found.map((user) => user.id),
        );
        for (const user of found) await deleteUser(trx, c, deps, user);
      });
      return c.body(null, 204);
    },
  );

  app.delete(
    '/user/:id',
    describeOperation({
      tag: 'Users',
      summary:
        'Deletes a user the caller may change (never oneself, a stronger user, or the last system administrator) and revokes the certificates the user owns (affiliationChanged); If-Match is honoured.',
      success: { status: 204, description: 'User deleted' },
      failures: [400, 403, 404, 409],
      ifMatch: { required: false, current: userSchema },
    }),
    authenticated,
    userParams,
    (c) =>
      users.change(c, c.req.valid('param'), {
        precondition: 'honoured',
        permit: async ({ row }, trx) => {
          await assertMayChangeUser(trx, c.var.principal, [row.id]);
          await assertSystemAdministratorRemains(trx, [row.id]);
        },
        apply: async (trx, { row }) => {
          await revokeCertificates(deps, trx, requestActor(c, deps.config), {
            where: 'owner',
            ids: [row.id],
            reason: 'affiliationChanged',
          });
          await cancelPendingEnrollmentsOf(deps, trx, requestActor(c, deps.config), [row.id]);
          await trx.deleteFrom('users').where('id', '=', row.id).execute();
          return { action: 'DELETE', details: { user_name: row.user_name, access_scope: row.access_scope } };
        },
      }),
  );

  app.put(
    '/user/:id/enable',
    describeOperation({
      tag: 'Users',
      summary:
        'Enables or disables a user; disabling ends every session of the user at once. Never oneself, a stronger user, or the last system administrator; If-Match is required.',
      success: { status: 204, description: 'Enabled state changed' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: userSchema },
    }),
    authenticated,
    userParams,
    validateJson(userEnableSchema),
    (c) => {
      const { enabled } = c.req.valid('json');
      return users.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: async ({ row }, trx) => {
          await assertMayChangeUser(trx, c.var.principal, [row.id]);
          if (!enabled) await assertSystemAdministratorRemains(trx, [row.id]);
        },
        apply: async (trx, { row }, now) => {
          const before = await trx
            .selectFrom('users')
            .select('active')
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow();
          if (before.active === enabled) return null;
          await trx
            .updateTable('users')
            .set((eb) => ({ active: enabled, updated_at: now, version: eb('version', '+', 1) }))
            .where('id', '=', row.id)
            .execute();
          // The sessions end with the disabling, so enabling again never revives one; API tokens stop
          // through the enabled check every request makes.
          const ended = enabled ? 0 : await revokeUserSessions(trx, row.id, 'user_disabled', now);
          const details = updateDetails({ enabled: before.active }, { enabled }, ['enabled']);
          return { action: 'UPDATE', details: enabled ? details : { ...details, sessions_ended: ended } };
        },
      });
    },
  );

  app.put(
    '/user/:id/access',
    describeOperation({
      tag: 'Users',
      summary:
        'Replaces the accounts (beyond the primary one) and the roles of a user: every added role held by the caller and fitting the user; never oneself, a stronger user, or the last system administrator; If-Match is required.',
      success: { status: 204, description: 'Access changed' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: userSchema },
    }),
    authenticated,
    userParams,
    validateJson(userAccessSchema),
    (c) => {
      const access = c.req.valid('json');
      let roles: RoleToGive[] = [];
      return users.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: async ({ row }, trx) => {
          roles = await permitAccessChange(trx, c.var.principal, row.id, access);
        },
        apply: (trx, { row }, now) => replaceAccess(trx, row, access, roles, now),
      });
    },
  );
}

/**
 * Deletes one user found within reach and records DELETE USER in its account's trail; the caller
 * has revoked the user's certificates first.
 */
async function deleteUser(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: AppDeps,
  user: ReachableUser,
): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', user.id).execute();
  await auditChange(trx, c, deps, {
    action: 'DELETE',
    resourceType: 'USER',
    resourceId: user.id,
    accountId: user.primary_account_id,
    details: { user_name: user.user_name, access_scope: user.access_scope },
  });
}
