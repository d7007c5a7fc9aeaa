import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import {
  type UserAccess,
  userAccessSchema,
  userCreateSchema,
  userDeleteQuerySchema,
  userEnableSchema,
  userIdParamsSchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, requestActor, updateDetails } from '../audit/change.ts';
import { assertRoleFitsUser } from '../authorization/grants.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { requireAuth } from '../http/authenticate.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { accessScopeOf, revokeUserSessions } from '../identity/sessions.ts';
import type { versionedResource } from '../resources/versioned-resource.ts';
import {
  assertMayChangeUser,
  assertMayGiveRole,
  assertSystemAdministratorRemains,
} from '../roles/assignments.ts';
import { assertUserAccess } from './access.ts';
import { createPerson } from './create.ts';
import { assertAccountsInReach, type RoleToGive, rolesInReach } from './grants.ts';
import { userRecord } from './repository.ts';

type ReachableUser = NonNullable<Awaited<ReturnType<typeof findReachableUser>>>;
type Users = ReturnType<typeof versionedResource<{ id: string }, ReachableUser>>;

/**
 * The user lifecycle of decision 018 §4.1: creating a person (with the invitation mail), deleting one
 * or several, enabling and disabling, and replacing a user's accounts and roles. Every route runs the
 * order of checks of §3.4 and shares G3–G8 with the role page's assignment (`roles/assignments.ts`).
 */
export function userLifecycleRoutes(app: Hono<AppEnv>, deps: AppDeps, users: Users): void {
  const { db } = deps;
  const authenticated = requireAuth(deps);
  const userParams = validateParams(userIdParamsSchema);

  app.post('/user', authenticated, validateJson(userCreateSchema), async (c) => {
    const body = c.req.valid('json');
    const principal = c.var.principal;
    const id = await db
      .transaction()
      .execute((trx) =>
        createPerson(trx, principal, deps, body, { actor: requestActor(c, deps.config), invitation: true }),
      );
    deps.mail.nudge();
    const user = await userRecord(db, principal, id, deps.now());
    if (!user) throw new Error('A created user is gone.');
    c.header('Location', apiPaths.users.byId(id));
    c.header('ETag', entityTag(user.version));
    return c.json(user, 201);
  });

  app.delete('/user', authenticated, validateQuery(userDeleteQuerySchema), async (c) => {
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
      for (const user of found) await deleteUser(trx, c, deps, user);
    });
    return c.body(null, 204);
  });

  app.delete('/user/:id', authenticated, userParams, (c) =>
    users.change(c, c.req.valid('param'), {
      precondition: 'honoured',
      permit: async ({ row }, trx) => {
        await assertMayChangeUser(trx, c.var.principal, [row.id]);
        await assertSystemAdministratorRemains(trx, [row.id]);
      },
      apply: async (trx, { row }) => {
        await trx.deleteFrom('users').where('id', '=', row.id).execute();
        return { action: 'DELETE', details: { user_name: row.user_name, access_scope: row.access_scope } };
      },
    }),
  );

  app.put('/user/:id/enable', authenticated, userParams, validateJson(userEnableSchema), (c) => {
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
  });

  app.put('/user/:id/access', authenticated, userParams, validateJson(userAccessSchema), (c) => {
    const access = c.req.valid('json');
    const principal = c.var.principal;
    let roles: RoleToGive[] = [];
    return users.change(c, c.req.valid('param'), {
      precondition: 'required',
      permit: async ({ row }, trx) => {
        roles = await rolesInReach(trx, principal, access.role_ids, 'role_ids');
        await assertAccountsInReach(trx, principal, access.account_ids, 'account_ids');
        await assertMayChangeUser(trx, principal, [row.id]);
        const held = await currentGrants(trx, row.id);
        for (const role of roles.filter((role) => !held.roleIds.has(role.id))) {
          await assertMayGiveRole(trx, principal, role, 'role_ids');
        }
        const giving = new Set(roles.map((role) => role.id));
        if ([...held.systemAdministratorRoles].some((id) => !giving.has(id))) {
          await assertSystemAdministratorRemains(trx, [row.id]);
        }
      },
      apply: (trx, { row }, now) => replaceAccess(trx, row, access, roles, now),
    });
  });
}

/** A user's stored accounts (beyond the primary one) and roles, with names for the trail. */
async function currentGrants(db: Kysely<Database>, userId: string) {
  const [roles, accounts] = await Promise.all([
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.code', 'roles.account_id'])
      .where('user_roles.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_accounts')
      .innerJoin('users', 'users.id', 'user_accounts.user_id')
      .select('user_accounts.account_id')
      .where('user_accounts.user_id', '=', userId)
      .whereRef('user_accounts.account_id', '!=', 'users.primary_account_id')
      .execute(),
  ]);
  return {
    roleIds: new Set(roles.map((role) => role.id)),
    roleNames: roles.map((role) => role.name).sort(),
    systemAdministratorRoles: new Set(
      roles
        .filter((role) => role.code === 'system_administrator' && role.account_id === null)
        .map((role) => role.id),
    ),
    accountIds: accounts.map((account) => account.account_id).sort(),
  };
}

/**
 * PUT user/{id}/access once permitted: G6 for every role added (400 `roleNotForUser`), then the
 * differences written; the primary account is never removed (it fixes the scope). Answers the
 * UPDATE USER facts (role names, account ids), or null when nothing differs.
 */
async function replaceAccess(
  trx: Kysely<Database>,
  row: ReachableUser,
  access: UserAccess,
  roles: readonly RoleToGive[],
  now: Date,
) {
  const before = await currentGrants(trx, row.id);
  const added = roles.filter((role) => !before.roleIds.has(role.id));
  for (const role of added) assertRoleFitsUser(role, row, 'role_ids');
  const wantedRoles = new Set(roles.map((role) => role.id));
  const removedRoles = [...before.roleIds].filter((id) => !wantedRoles.has(id));
  const wantedAccounts = new Set(access.account_ids.filter((id) => id !== row.primary_account_id));
  const addedAccounts = [...wantedAccounts].filter((id) => !before.accountIds.includes(id));
  const removedAccounts = before.accountIds.filter((id) => !wantedAccounts.has(id));
  if (added.length + removedRoles.length + addedAccounts.length + removedAccounts.length === 0) return null;

  if (added.length > 0) {
    await trx
      .insertInto('user_roles')
      .values(added.map((role) => ({ user_id: row.id, role_id: role.id })))
      .execute();
  }
  if (removedRoles.length > 0) {
    await trx
      .deleteFrom('user_roles')
      .where('user_id', '=', row.id)
      .where('role_id', 'in', removedRoles)
      .execute();
  }
  if (addedAccounts.length > 0) {
    await trx
      .insertInto('user_accounts')
      .values(addedAccounts.map((accountId) => ({ user_id: row.id, account_id: accountId })))
      .execute();
  }
  if (removedAccounts.length > 0) {
    await trx
      .deleteFrom('user_accounts')
      .where('user_id', '=', row.id)
      .where('account_id', 'in', removedAccounts)
      .execute();
  }
  await trx
    .updateTable('users')
    .set((eb) => ({ updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', row.id)
    .execute();
  const after = await currentGrants(trx, row.id);
  const changes: Record<string, { from: string[]; to: string[] }> = {};
  if (added.length + removedRoles.length > 0) changes.roles = { from: before.roleNames, to: after.roleNames };
  if (addedAccounts.length + removedAccounts.length > 0) {
    changes.accounts = { from: before.accountIds, to: after.accountIds };
  }
  return { action: 'UPDATE' as const, details: { changes } };
}

/** Deletes one user found within reach and records DELETE USER in its account's trail. */
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
