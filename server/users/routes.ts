import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  passwordChangeSchema,
  type UserApplicationList,
  type UserExists,
  type UserList,
  userApplicationListSchema,
  userExistsQuerySchema,
  userExistsSchema,
  userExportQuerySchema,
  userIdParamsSchema,
  userListQuerySchema,
  userListSchema,
  userSchema,
  userUpdateSchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { assertMayReadUsers, assertUserAccess } from '../authorization/user-access.ts';
import {
  findReachableUser,
  ROLE_NOT_FOUND,
  reachesAccount,
  reachesRole,
} from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { writtenCsvResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth, requireSession } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { licensedApplications } from '../licence/index.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { USER_CSV_HEADER } from './csv.ts';
import {
  applyUserUpdate,
  assertEditableByYou,
  assertMayEditUser,
  type EditableUser,
  findEditableUser,
} from './edit.ts';
import { userCsvBody } from './export.ts';
import { userLifecycleRoutes } from './lifecycle.ts';
import { userLinkRoutes } from './links.ts';
import { DEFAULT_SORT, listUsers, type UserFilters } from './list.ts';
import { userMailRoutes } from './mail-requests.ts';
import { changeOwnPassword } from './password.ts';
import { applicationOf, applicationRoles, userRecord } from './repository.ts';
import { userSelfServiceRoutes } from './self-service.ts';
import { probingUserNames, takenUserNames } from './user-name-probes.ts';

type ReachableUser = NonNullable<Awaited<ReturnType<typeof findReachableUser>>>;

/**
 * A user as the versioned-resource helper addresses it: one out of the caller's reach (decision 018
 * §3.1) is not found, then the permission of the access is checked. The 412 body of the changes to
 * come is the user as GET user/{id} answers it.
 */
function userKind(deps: AppDeps): ResourceKind<{ id: string }, ReachableUser> {
  return {
    label: 'User',
    resourceType: 'USER',
    find: async (db, principal, { id }, lock) => {
      const row = await findReachableUser(db, principal, id, lock);
      return row && { row, accountId: row.primary_account_id };
    },
    authorize: (principal, { row }, access) =>
      assertUserAccess(principal, accessScopeOf(row.access_scope), access),
    represent: async (db, principal, { row }) => {
      const user = await userRecord(db, principal, row.id, deps.now());
      if (!user) throw new Error('A located user is gone.');
      return user;
    },
  };
}

/**
 * A user as its edit addresses it: out of reach is not found; oneself needs no permission (the own
 * profile), anyone else the permission of changing users of that scope. The 412 body is the user as
 * GET user/{id} answers it.
 */
function editableUserKind(deps: AppDeps): ResourceKind<{ id: string }, EditableUser> {
  return {
    label: 'User',
    resourceType: 'USER',
    find: async (db, principal, { id }, lock) => {
      const row = await findEditableUser(db, principal, id, lock);
      return row && { row, accountId: row.primary_account_id };
    },
    authorize: (principal, { row }, access) => assertMayEditUser(principal, row, access),
    represent: async (db, principal, { row }) => {
      const user = await userRecord(db, principal, row.id, deps.now());
      if (!user) throw new Error('A located user is gone.');
      return user;
    },
  };
}

/**
 * The filters that name an object, checked before anything is listed (decision 018 G10): an account
 * or role out of the caller's reach is answered 404 like a missing one, never an empty page that
 * would tell it exists but holds nobody the caller sees. Then the permission (403), as for one object.
 */
async function assertListable(
  db: Kysely<Database>,
  principal: Principal,
  filters: UserFilters,
): Promise<void> {
  if (filters.account_id !== undefined && !(await reachesAccount(db, principal, filters.account_id))) {
    throw new ApiError(404, ACCOUNT_NOT_FOUND);
  }
  if (filters.role_id !== undefined && !(await reachesRole(db, principal, filters.role_id))) {
    throw new ApiError(404, ROLE_NOT_FOUND);
  }
  assertMayReadUsers(principal);
}

/** Users (/account/ui-api/v1), described in docs/api.md. The static paths come before `user/:id`. */
export function userRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const users = versionedResource(deps, userKind(deps));
  const editableUsers = versionedResource(deps, editableUserKind(deps));

  app.get(
    '/user',
    describeOperation({
      tag: 'Users',
      summary:
        'The users the caller reaches (view user or any manage-user permission), filtered, sorted and a page at a time; an account or role filter out of reach is 404.',
      success: { status: 200, description: 'Users', schema: userListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(userListQuerySchema),
    async (c) => {
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      await assertListable(db, c.var.principal, filters);
      const list: UserList = await listUsers(db, c.var.principal, filters, page);
      return c.json(list);
    },
  );

  app.get(
    '/user/export',
    describeOperation({
      tag: 'Users',
      summary: 'The same users, filtered and sorted, all of them, as a CSV attachment (text/csv).',
      success: { status: 200, description: 'CSV file, header row first' },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(userExportQuerySchema),
    async (c) => {
      const { sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      await assertListable(db, c.var.principal, filters);
      return writtenCsvResponse(c, {
        header: USER_CSV_HEADER,
        body: userCsvBody(db, c.var.principal, filters, sort),
        filename: `users-${utcDate(deps.now())}.csv`,
      });
    },
  );

  // Any signed-in person: the own profile checks a new user name with it. User names are unique
  // across the platform, so the answer is the platform's; it says nothing else about the user, and a
  // caller learns only so many names of users outside its reach (decision 041).
  app.get(
    '/user/exists',
    describeOperation({
      tag: 'Users',
      summary:
        "Whether a user name is taken anywhere on the platform (any signed-in caller); names of users outside the caller's reach count against an hourly budget, past which every check answers 429 (decision 041).",
      success: { status: 200, description: 'Whether it exists', schema: userExistsSchema },
      failures: [400, 429],
    }),
    authenticated,
    validateQuery(userExistsQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const name = c.req.valid('query').user_name;
      const { taken } = await probingUserNames(
        db,
        principal,
        deps.now(),
        () => takenUserNames(db, principal, [name]),
        (answer) => answer.outsideReach,
      );
      const body: UserExists = { exists: taken.size > 0 };
      return c.json(body);
    },
  );

  app.get(
    '/user/:id',
    describeOperation({
      tag: 'Users',
      summary:
        'The whole record of a user the caller reaches (view user or any manage-user permission); ETag is its version.',
      success: { status: 200, description: 'User', schema: userSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateParams(userIdParamsSchema),
    (c) => users.read(c, c.req.valid('param')),
  );

  // An administrator's edit and the person's own profile alike (decision 035 §1); queueable offline,
  // so If-Match is required. Members outside the schema (scope, enabled, roles) are dropped unread.
  app.put(
    '/user/:id',
    describeOperation({
      tag: 'Users',
      summary:
        "Replaces a user's fields (names, user name, e-mail, phone, language, aliases): the person themselves, or whoever may change that user (manage user and the manage permission of its scope) and holds every permission it holds (403 userExceedsYours). Aliases only for system-scope users (400); a taken user name is 409 inUse. A new e-mail address is unverified until its link is used: the user's open links end, a verification goes to the new address and a notice to the old one. Other members (scope, enabled, roles) are ignored.",
      success: { status: 204, description: 'User changed', etag: true },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: userSchema },
    }),
    authenticated,
    validateParams(userIdParamsSchema),
    validateJson(userUpdateSchema),
    async (c) => {
      const principal = c.var.principal;
      const update = c.req.valid('json');
      return probingUserNames(db, principal, deps.now(), () =>
        editableUsers.change(c, c.req.valid('param'), {
          precondition: 'required',
          permit: ({ row }) => assertEditableByYou(principal, row),
          apply: async (trx, { row }, now) => {
            const details = await applyUserUpdate(trx, principal, row, update, now);
            return details && { action: 'UPDATE', details };
          },
        }),
      );
    },
  );

  // One's own password, in a signed-in session only (G7): proven by the current one, whose guesses
  // count against the sign-in throttle; every other session of the user ends.
  app.put(
    '/user/:id/password',
    describeOperation({
      tag: 'Users',
      summary:
        "Changes the caller's own password (403 ownUserOnly for anyone else), in a signed-in session only (403 sessionRequired). A wrong current password is 400 wrongPassword and counts against the sign-in throttle (429); the new one must differ (samePassword). Every other session of the user ends; a notice is mailed.",
      success: { status: 204, description: 'Password changed' },
      failures: [400, 403, 404, 413, 415, 429],
    }),
    authenticated,
    requireSession(),
    validateParams(userIdParamsSchema),
    validateJson(passwordChangeSchema),
    async (c) => {
      await changeOwnPassword(deps, c, c.req.valid('param').id, c.req.valid('json'));
      return c.body(null, 204);
    },
  );

  app.get(
    '/user/:id/applications',
    describeOperation({
      tag: 'Users',
      summary: 'The licensed applications a user the caller reaches holds a role in, with those roles.',
      success: { status: 200, description: 'Applications', schema: userApplicationListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateParams(userIdParamsSchema),
    async (c) => {
      const { row } = await users.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
      const licensed = await licensedApplications(db, deps.now());
      const items: UserApplicationList['items'] = (await applicationRoles(db, row.id, licensed)).map(
        ({ appCode, roles }) => ({ ...applicationOf(appCode), roles }),
      );
      return c.json({ items, total: items.length } satisfies UserApplicationList);
    },
  );

  userLifecycleRoutes(app, deps, users);
  userMailRoutes(app, deps);
  userSelfServiceRoutes(app, deps);
  userLinkRoutes(app, deps);

  return app;
}
