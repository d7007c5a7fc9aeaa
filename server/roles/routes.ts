import { Hono } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import { PERMISSION_GROUPS, type PermissionName } from '../../contract/permissions.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type PermissionGroupList,
  permissionGroupListSchema,
  permissionGroupQuerySchema,
  type Role,
  type RoleDetails,
  type RoleList,
  type RoleUnique,
  roleCreateSchema,
  roleDetailsSchema,
  roleExportQuerySchema,
  roleIdParamsSchema,
  roleListQuerySchema,
  roleListSchema,
  roleSchema,
  roleUniqueQuerySchema,
  roleUniqueSchema,
  roleUpdateSchema,
  roleUsersQuerySchema,
  roleUsersUpdateSchema,
  type UserList,
  userListSchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { changesNothing, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import {
  assertGrantable,
  assertRoleWithinYours,
  permissionsForAccountType,
  withImpliedViews,
} from '../authorization/grants.ts';
import { assertMayReadUsers } from '../authorization/user-access.ts';
import { ROLE_NOT_FOUND, reachesAccount, reachesRole } from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { AppEnv } from '../http/app-env.ts';
import { writtenCsvResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertRolesFeatureOn, changeRoleHolders, rolesFeatureOn } from '../role-assignments/index.ts';
import { DEFAULT_SORT as DEFAULT_USER_SORT, listUsers } from '../users/index.ts';
import { assertMayDefineRoles, assertMayReadRoles } from './access.ts';
import { ROLE_CSV_HEADER } from './csv.ts';
import { roleCsvBody } from './export.ts';
import {
  accountType,
  archiveRole,
  DEFAULT_SORT,
  findReachableRole,
  insertRole,
  listRoles,
  ROLE_NAME_CONSTRAINT,
  type RoleFilters,
  roleNameTaken,
  updateRole,
} from './repository.ts';
import {
  assertNotArchived,
  assertNotBuiltIn,
  assertPermissionsFitAccount,
  assertRoleNameFree,
  mayEditRole,
  roleNameInUse,
} from './rules.ts';

const roleKind: ResourceKind<{ id: string }, Role> = {
  label: 'Role',
  resourceType: 'ROLE',
  find: async (db, principal, { id }, lock) => {
    const role = await findReachableRole(db, principal, id, lock);
    // A built-in role belongs to no account: it is read from the caller's own, and never changed.
    return role && { row: role, accountId: role.account_id ?? principal.primaryAccountId };
  },
  authorize: (principal, _found, access) =>
    access === 'view' ? assertMayReadRoles(principal) : assertMayDefineRoles(principal),
  represent: async (db, principal, { row }): Promise<RoleDetails> => ({
    ...row,
    editable: mayEditRole(principal, row, await rolesFeatureOn(db)),
  }),
};

/** Fields of a role whose values the trail keeps: a role holds no personal data. */
const DISCLOSED = ['name', 'description', 'permissions', 'archived'];

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((name) => set.has(name));
}

/** The 404 of an account out of reach, checked before the permission as for one object. */
async function assertAccountInReach(db: AppDeps['db'], principal: Principal, accountId: string) {
  if (!(await reachesAccount(db, principal, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
}

/** The list's account filter out of reach is 404 (decision 018 G10), then the permission (403). */
async function assertListable(db: AppDeps['db'], principal: Principal, filters: RoleFilters) {
  if (filters.account_id !== undefined) await assertAccountInReach(db, principal, filters.account_id);
  assertMayReadRoles(principal);
}

/**
 * Roles (/account/ui-api/v1), described in docs/api.md: reading, and defining custom roles under the
 * no-escalation rules of decision 018 §3.3 (G1 reach, G2 permission, G5 grant only what you hold,
 * G8 protected roles and the roles feature, G9 what the account type allows).
 */
export function roleRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const roles = versionedResource(deps, roleKind);
  const roleParams = validateParams(roleIdParamsSchema);

  app.get(
    '/role',
    describeOperation({
      tag: 'Roles',
      summary:
        'The built-in roles and the custom roles of the accounts whose users the caller reaches (view or manage user role, or manage user), each with its account name, the count of its holders the caller reaches and whether the caller may edit it; sortable by name, application, type, users and created; an account filter out of reach is 404.',
      success: { status: 200, description: 'Roles', schema: roleListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(roleListQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      await assertListable(db, principal, filters);
      const [roles, featureOn] = await Promise.all([
        listRoles(db, principal, filters, page),
        rolesFeatureOn(db),
      ]);
      const list: RoleList = {
        ...roles,
        items: roles.items.map((role) => ({ ...role, editable: mayEditRole(principal, role, featureOn) })),
      };
      return c.json(list);
    },
  );

  // Before role/:id, which this path would match too.
  app.get(
    '/role/export',
    describeOperation({
      tag: 'Roles',
      summary: 'The same roles, filtered and sorted, all of them, as a CSV attachment (text/csv).',
      success: { status: 200, description: 'CSV file, header row first' },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(roleExportQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      await assertListable(db, principal, filters);
      return writtenCsvResponse(c, {
        header: ROLE_CSV_HEADER,
        body: roleCsvBody(db, principal, filters, sort),
        filename: `roles-${utcDate(deps.now())}.csv`,
      });
    },
  );

  app.get(
    '/permissiongroup',
    describeOperation({
      tag: 'Roles',
      summary:
        "An application's permission groups, each permission marked grantable when the caller holds it and the account's type allows it (read roles).",
      success: { status: 200, description: 'Permission groups', schema: permissionGroupListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(permissionGroupQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const query = c.req.valid('query');
      await assertAccountInReach(db, principal, query.account_id);
      assertMayReadRoles(principal);
      const allowed = permissionsForAccountType(await accountType(db, query.account_id));
      const items = PERMISSION_GROUPS[query.application_id].map((group) => ({
        id: group.id,
        permissions: group.permissions.map((name) => ({
          name,
          grantable: principal.permissions.has(name) && allowed.has(name),
        })),
      }));
      const list: PermissionGroupList = { items, total: items.length };
      return c.json(list);
    },
  );

  app.post(
    '/role',
    describeOperation({
      tag: 'Roles',
      summary:
        'Creates (or, with cloned_from, clones) a custom role of an account the caller reaches (manage user role), granting only permissions the caller holds; Location names it.',
      success: { status: 201, description: 'Role created', schema: roleSchema, etag: true },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateJson(roleCreateSchema),
    (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const permissions = withImpliedViews(body.permissions);
      return roles.create(c, {
        authorizeParent: async (trx) => {
          await assertAccountInReach(trx, principal, body.account_id);
          if (body.cloned_from !== undefined && !(await reachesRole(trx, principal, body.cloned_from))) {
            throw new ApiError(404, ROLE_NOT_FOUND);
          }
          assertMayDefineRoles(principal);
          await assertRolesFeatureOn(trx);
          // A clone is checked on what it will grant, not on the role it was filled from.
          assertGrantable(principal, permissions, 'permissions');
          return body.account_id;
        },
        insert: async (trx, now) => {
          const scope = { accountId: body.account_id, appCode: body.application_id, name: body.name };
          await assertPermissionsFitAccount(trx, { ...scope, permissions });
          await assertRoleNameFree(trx, scope);
          const id = await insertRole(
            trx,
            {
              ...scope,
              description: body.description,
              permissions,
              clonedFrom: body.cloned_from ?? null,
              createdBy: principal.userId,
            },
            now,
          ).catch((error: unknown) => {
            // A role of the same name created at the same moment.
            throw isUniqueViolation(error, ROLE_NAME_CONSTRAINT) ? roleNameInUse() : error;
          });
          const created = await findReachableRole(trx, principal, id, false);
          if (!created) throw new Error('A role just created is out of its creator’s reach.');
          return created;
        },
        describe: (row) => ({
          name: row.name,
          application: row.app_code,
          account_id: row.account_id,
          permissions: row.permissions,
          cloned_from: row.cloned_from,
        }),
        location: (row) => apiPaths.roles.byId(row.id),
      });
    },
  );

  // Before role/:id, which this path would match too.
  app.get(
    '/role/unique',
    describeOperation({
      tag: 'Roles',
      summary:
        'Whether a name is free for a new custom role of that account and application (no active custom role nor built-in role has it, whatever the case).',
      success: { status: 200, description: 'Whether the name is free', schema: roleUniqueSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(roleUniqueQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const query = c.req.valid('query');
      await assertAccountInReach(db, principal, query.account_id);
      assertMayReadRoles(principal);
      const taken = await roleNameTaken(db, {
        accountId: query.account_id,
        appCode: query.application_id,
        name: query.name,
      });
      const answer: RoleUnique = { unique: !taken };
      return c.json(answer);
    },
  );

  app.get(
    '/role/:id',
    describeOperation({
      tag: 'Roles',
      summary:
        'A role the caller reaches (view or manage user role, or manage user), with the count of its holders the caller reaches and whether the caller may edit it; ETag is its version.',
      success: { status: 200, description: 'Role', schema: roleDetailsSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    roleParams,
    (c) => roles.read(c, c.req.valid('param')),
  );

  app.get(
    '/role/:id/users',
    describeOperation({
      tag: 'Roles',
      summary:
        "A page of a role's holders the caller reaches, by name (read roles and read users); total is the count the archive dialog shows.",
      success: { status: 200, description: 'Holders', schema: userListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    roleParams,
    validateQuery(roleUsersQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { row } = await roles.locate(db, principal, c.req.valid('param'), 'view', false);
      // The holders are users: whoever lists them needs to read users as well as roles.
      assertMayReadUsers(principal);
      const { limit = DEFAULT_LIST_LIMIT, offset = 0, after } = c.req.valid('query');
      // Within the caller's user reach only, like GET user?role_id=, which this is.
      const list: UserList = await listUsers(
        db,
        principal,
        { role_id: row.id },
        { limit, offset, after, sort: DEFAULT_USER_SORT },
      );
      return c.json(list);
    },
  );

  // Assigning needs the permission to change each user (decision 018 §3.2), checked per user; the
  // role itself only needs to be readable.
  app.put(
    '/role/:id/users',
    describeOperation({
      tag: 'Roles',
      summary:
        'Gives a role to users and takes it from others, all or none (the permission to change each user; never oneself, a stronger user, or a role granting more than the caller holds).',
      success: { status: 204, description: 'Holders changed' },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    roleParams,
    validateJson(roleUsersUpdateSchema),
    async (c) => {
      await db.transaction().execute(async (trx) => {
        const { row } = await roles.locate(trx, c.var.principal, c.req.valid('param'), 'view', true);
        await changeRoleHolders(trx, c, deps, row, c.req.valid('json'));
      });
      return c.body(null, 204);
    },
  );

  app.put(
    '/role/:id',
    describeOperation({
      tag: 'Roles',
      summary:
        "Replaces a custom role's name, description and permissions (manage user role; the role's and the new permissions held by the caller); If-Match is required.",
      success: { status: 204, description: 'Role changed' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: roleDetailsSchema },
    }),
    authenticated,
    roleParams,
    validateJson(roleUpdateSchema),
    (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const permissions: PermissionName[] = withImpliedViews(body.permissions);
      return roles.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: async ({ row }, trx) => {
          assertNotBuiltIn(row);
          await assertRolesFeatureOn(trx);
          assertNotArchived(row);
          // Neither a role above the caller's level nor one raised above it (G5).
          assertRoleWithinYours(principal, row.permissions);
          assertGrantable(principal, permissions, 'permissions');
        },
        apply: async (trx, { row, accountId }, now) => {
          const scope = { accountId, appCode: row.app_code, name: body.name };
          await assertPermissionsFitAccount(trx, { ...scope, permissions });
          await assertRoleNameFree(trx, { ...scope, exceptId: row.id });
          const before = { name: row.name, description: row.description, permissions: row.permissions };
          const after = {
            name: body.name,
            description: body.description,
            // The same set in another order is no change.
            permissions: sameNames(row.permissions, permissions) ? row.permissions : permissions,
          };
          const details = updateDetails(before, after, DISCLOSED);
          if (changesNothing(details)) return null;
          await updateRole(trx, row.id, after, now).catch((error: unknown) => {
            throw isUniqueViolation(error, ROLE_NAME_CONSTRAINT) ? roleNameInUse() : error;
          });
          return { action: 'UPDATE', details };
        },
      });
    },
  );

  // Archives: the spec names no deletion, and the trail and the assignments keep the role's name.
  app.delete(
    '/role/:id',
    describeOperation({
      tag: 'Roles',
      summary:
        'Archives a custom role (manage user role; its permissions held by the caller): its holders lose what it grants at once; If-Match is required.',
      success: { status: 204, description: 'Role archived' },
      failures: [400, 403, 404, 409],
      ifMatch: { required: true, current: roleDetailsSchema },
    }),
    authenticated,
    roleParams,
    (c) => {
      const principal = c.var.principal;
      return roles.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: async ({ row }, trx) => {
          assertNotBuiltIn(row);
          await assertRolesFeatureOn(trx);
          assertRoleWithinYours(principal, row.permissions);
        },
        apply: async (trx, { row }, now) => {
          if (row.status === 'archived') return null;
          await archiveRole(trx, row.id, principal.userId, now);
          return {
            action: 'UPDATE',
            details: updateDetails({ archived: false }, { archived: true }, DISCLOSED),
          };
        },
      });
    },
  );

  return app;
}
