import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import {
  type ServiceUserCreated,
  type ServiceUserList,
  serviceUserCreatedSchema,
  serviceUserCreateSchema,
  serviceUserExportQuerySchema,
  serviceUserIdParamsSchema,
  serviceUserListQuerySchema,
  serviceUserListSchema,
  serviceUserSchema,
  serviceUserUpdateSchema,
} from '../../contract/schemas/service-users.ts';
import { userAccessSchema, userEnableSchema } from '../../contract/schemas/users.ts';
import { isServiceEndDateAllowed } from '../../contract/validation.ts';
import { issueApiToken } from '../api-tokens/index.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, changesNothing, requestActor, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { assertNotOwnUser, assertRoleFitsUser } from '../authorization/grants.ts';
import { assertMayReadUsers, assertUserAccess } from '../authorization/user-access.ts';
import { reachesAccount } from '../authorization/user-reach.ts';
import { revokeCertificates } from '../ca/index.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { AppEnv } from '../http/app-env.ts';
import { writtenCsvResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField, validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth, sessionIdOf } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertMayGiveRole } from '../role-assignments/index.ts';
import {
  assertAccountsInReach,
  assertUserNameFree,
  permitAccessChange,
  probingUserNames,
  type RoleToGive,
  replaceAccess,
  rolesInReach,
  scopeOfAccountType,
  UserNameInUse,
} from '../users/index.ts';
import { assertServiceUserAccess } from './access.ts';
import { SERVICE_USER_CSV_HEADER } from './csv.ts';
import { serviceUserCsvBody } from './export.ts';
import {
  DEFAULT_SORT,
  deleteServiceUser,
  findAccountForUsers,
  findReachableServiceUser,
  insertServiceUser,
  listServiceUsers,
  type ReachableServiceUser,
  type ServiceUserFilters,
  serviceUserRecord,
  setServiceUserEnabled,
  updateServiceUser,
} from './repository.ts';

/** The unique constraint of user names (people and service users share one namespace). */
const USER_NAME_CONSTRAINT = 'users_user_name_key_key';

const NAME_IN_USE = 'name: already in use';

/** Two creations or renames to one name at once: the second meets the unique constraint. */
function nameJustTaken(error: unknown): UserNameInUse | null {
  // Whose it is the race does not tell: counted as outside the caller's reach.
  return isUniqueViolation(error, USER_NAME_CONSTRAINT) ? new UserNameInUse(NAME_IN_USE, 'name', 1) : null;
}

/** A service user's end date, when it changes: none, or a day after today (as accounts' and tokens'). */
function assertEndDate(endDate: string | null, today: string): void {
  if (endDate !== null && !isServiceEndDateAllowed(endDate, today)) {
    throw invalidField('end_date', 'endDateNotInFuture');
  }
}

/** A service user as the versioned-resource helper addresses it; out of reach is not found. */
function serviceUserKind(deps: AppDeps): ResourceKind<{ id: string }, ReachableServiceUser> {
  return {
    label: 'Service user',
    resourceType: 'USER',
    find: async (db, principal, { id }, lock) => {
      const row = await findReachableServiceUser(db, principal, id, lock);
      return row && { row, accountId: row.primary_account_id };
    },
    authorize: (principal, { row }, access) => assertServiceUserAccess(principal, row, access),
    represent: async (db, principal, { row }) => {
      const record = await serviceUserRecord(db, principal, row.id, deps.now());
      if (!record) throw new Error('A located service user is gone.');
      return record;
    },
  };
}

/** An account filter out of reach is 404, never an empty page (G10); then the read permission. */
async function assertListable(
  db: Kysely<Database>,
  principal: Principal,
  filters: ServiceUserFilters,
): Promise<void> {
  if (filters.account_id !== undefined && !(await reachesAccount(db, principal, filters.account_id))) {
    throw new ApiError(404, ACCOUNT_NOT_FOUND);
  }
  assertMayReadUsers(principal);
}

/** Service users (/account/ui-api/v1, decision 035 §4), described in docs/api.md. */
export function serviceUserRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const serviceUsers = versionedResource(deps, serviceUserKind(deps));
  const params = validateParams(serviceUserIdParamsSchema);

  app.get(
    '/service-user',
    describeOperation({
      tag: 'Service users',
      summary:
        'The service users the caller reaches (view user or any manage-user permission), filtered by q, status (enabled, disabled, expired) and account_id, sorted and a page at a time; an account filter out of reach is 404.',
      success: { status: 200, description: 'Service users', schema: serviceUserListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(serviceUserListQuerySchema),
    async (c) => {
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      await assertListable(db, c.var.principal, filters);
      const list: ServiceUserList = await listServiceUsers(db, c.var.principal, filters, page, deps.now());
      return c.json(list);
    },
  );

  app.get(
    '/service-user/export',
    describeOperation({
      tag: 'Service users',
      summary: 'The same service users, filtered and sorted, all of them, as a CSV attachment (text/csv).',
      success: { status: 200, description: 'CSV file, header row first' },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(serviceUserExportQuerySchema),
    async (c) => {
      const { sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      await assertListable(db, c.var.principal, filters);
      const now = deps.now();
      return writtenCsvResponse(c, {
        header: SERVICE_USER_CSV_HEADER,
        body: serviceUserCsvBody(db, c.var.principal, filters, sort, now),
        filename: `service-users-${utcDate(now)}.csv`,
      });
    },
  );

  // Not through `versionedResource.create`: the answer holds the first token's value, so it is never
  // stored by the idempotency middleware (`isIdempotencyExempt`) and marked for no cache to keep.
  app.post(
    '/service-user',
    describeOperation({
      tag: 'Service users',
      summary:
        "Makes a service user (manage user and manage user of the scope its primary account gives, in a signed-in session) with its accounts, roles (each held by the caller and fitting it) and first API token; the answer holds the token's value, shown this once (Cache-Control: no-store). A name taken by any user is 409 inUse.",
      success: {
        status: 201,
        description: 'Service user made, with its first token and its value',
        schema: serviceUserCreatedSchema,
        etag: true,
      },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateJson(serviceUserCreateSchema),
    async (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const now = deps.now();
      const created: ServiceUserCreated = await probingUserNames(db, principal, now, () =>
        db
          .transaction()
          .execute(async (trx) => {
            // The order of checks of POST user, with its shared pieces: 404 for an account or role out of
            // reach (G1), 403 without the permission for the scope the primary account gives (G2), a
            // token minting no token (G7), then G5 and G8 on each role, and G6.
            const account = await findAccountForUsers(trx, principal, body.primary_account_id);
            if (!account) throw new ApiError(404, ACCOUNT_NOT_FOUND, { field: 'primary_account_id' });
            await assertAccountsInReach(trx, principal, body.account_ids, 'account_ids');
            const roles = await rolesInReach(trx, principal, body.role_ids, 'role_ids');
            const accessScope = scopeOfAccountType(account.type);
            assertUserAccess(principal, accessScope, 'manage');
            sessionIdOf(principal);
            for (const role of roles) await assertMayGiveRole(trx, principal, role, 'role_ids');
            const target = { access_scope: accessScope, primary_account_id: account.id };
            for (const role of roles) assertRoleFitsUser(role, target, 'role_ids');
            assertEndDate(body.end_date, utcDate(now));
            await assertUserNameFree(trx, principal, body.name, 'name', NAME_IN_USE);

            const id = await insertServiceUser(trx, {
              name: body.name,
              description: body.description,
              email: body.email,
              endDate: body.end_date,
              accessScope,
              primaryAccountId: body.primary_account_id,
              accountIds: body.account_ids,
              roleIds: roles.map((role) => role.id),
              createdBy: principal.userId,
              now,
            });
            await auditChange(trx, c, deps, {
              action: 'CREATE',
              resourceType: 'USER',
              resourceId: id,
              accountId: body.primary_account_id,
              details: {
                user_name: body.name,
                kind: 'service',
                access_scope: accessScope,
                end_date: body.end_date,
                account_ids: [...new Set([body.primary_account_id, ...body.account_ids])],
                roles: roles.map((role) => role.name).sort(),
              },
            });
            const token = await issueApiToken(
              trx,
              c,
              deps,
              {
                id,
                access_scope: accessScope,
                permissions: [],
                primary_account_id: body.primary_account_id,
                end_date: body.end_date,
              },
              { name: body.token_name, endDate: null },
              now,
            );
            const record = await serviceUserRecord(trx, principal, id, now);
            if (!record) throw new Error('A service user just made is gone.');
            return { service_user: record, api_token: token };
          })
          .catch((error: unknown) => {
            throw nameJustTaken(error) ?? error;
          }),
      );
      c.header('Cache-Control', 'no-store');
      c.header('Location', apiPaths.serviceUsers.byId(created.service_user.id));
      c.header('ETag', entityTag(created.service_user.version));
      return c.json(created, 201);
    },
  );

  app.get(
    '/service-user/:id',
    describeOperation({
      tag: 'Service users',
      summary: 'A service user the caller reaches; ETag is its version.',
      success: { status: 200, description: 'Service user', schema: serviceUserSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    params,
    (c) => serviceUsers.read(c, c.req.valid('param')),
  );

  app.put(
    '/service-user/:id',
    describeOperation({
      tag: 'Service users',
      summary:
        "Replaces a service user's name, description, e-mail and end date (manage user of its scope, holding all it holds); If-Match is required.",
      success: { status: 204, description: 'Service user changed', etag: true },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: serviceUserSchema },
    }),
    authenticated,
    params,
    validateJson(serviceUserUpdateSchema),
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.var.principal;
      return probingUserNames(db, principal, deps.now(), () =>
        serviceUsers
          .change(c, c.req.valid('param'), {
            precondition: 'required',
            apply: async (trx, { row }, now) => {
              if (body.end_date !== row.end_date) assertEndDate(body.end_date, utcDate(now));
              const renamed = body.name !== row.user_name;
              if (renamed && body.name.toLowerCase() !== row.user_name.toLowerCase()) {
                await assertUserNameFree(trx, principal, body.name, 'name', NAME_IN_USE);
              }
              const before = {
                user_name: row.user_name,
                description: row.description,
                email: row.email,
                end_date: row.end_date,
              };
              const after = {
                user_name: body.name,
                description: body.description,
                email: body.email,
                end_date: body.end_date,
              };
              // The responsible person's address is personal data: the trail says it changed, not to what.
              const details = updateDetails(before, after, ['user_name', 'description', 'end_date']);
              if (changesNothing(details)) return null;
              await updateServiceUser(trx, row.id, body, now);
              return { action: 'UPDATE', details };
            },
          })
          .catch((error: unknown) => {
            throw nameJustTaken(error) ?? error;
          }),
      );
    },
  );

  // Its accounts and roles, under the rules of PUT user/{id}/access (one shared pair of steps).
  app.put(
    '/service-user/:id/access',
    describeOperation({
      tag: 'Service users',
      summary:
        "Replaces a service user's accounts beyond the primary one and its roles, under the rules of PUT user/{id}/access (reach, manage user of its scope, holding all it holds, granting only what one holds, roles fitting it); If-Match is required.",
      success: { status: 204, description: 'Accounts and roles replaced', etag: true },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: serviceUserSchema },
    }),
    authenticated,
    params,
    validateJson(userAccessSchema),
    (c) => {
      const access = c.req.valid('json');
      let roles: RoleToGive[] = [];
      return serviceUsers.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: async ({ row }, trx) => {
          roles = await permitAccessChange(trx, c.var.principal, row.id, access);
        },
        apply: (trx, { row }, now) => replaceAccess(trx, row, access, roles, now),
      });
    },
  );

  app.put(
    '/service-user/:id/enable',
    describeOperation({
      tag: 'Service users',
      summary:
        'Enables or disables a service user; its tokens stop or work again on the next request. If-Match is required.',
      success: { status: 204, description: 'Enabled state set', etag: true },
      failures: [400, 403, 404, 413, 415],
      ifMatch: { required: true, current: serviceUserSchema },
    }),
    authenticated,
    params,
    validateJson(userEnableSchema),
    (c) => {
      const { enabled } = c.req.valid('json');
      return serviceUsers.change(c, c.req.valid('param'), {
        precondition: 'required',
        // G3: a service user's token does not switch its own service user off or on.
        permit: ({ row }) => assertNotOwnUser(c.var.principal, row.id),
        apply: async (trx, { row }, now) => {
          if (row.active === enabled) return null;
          await setServiceUserEnabled(trx, row.id, enabled, now);
          return {
            action: 'UPDATE',
            details: updateDetails({ enabled: row.active }, { enabled }, ['enabled']),
          };
        },
      });
    },
  );

  app.delete(
    '/service-user/:id',
    describeOperation({
      tag: 'Service users',
      summary:
        'Deletes a service user and its API tokens, and revokes the certificates it owns (affiliationChanged).',
      success: { status: 204, description: 'Service user deleted' },
      failures: [400, 403, 404],
      ifMatch: { required: false, current: serviceUserSchema },
    }),
    authenticated,
    params,
    (c) =>
      serviceUsers.change(c, c.req.valid('param'), {
        precondition: 'honoured',
        permit: ({ row }) => assertNotOwnUser(c.var.principal, row.id),
        apply: async (trx, { row }) => {
          // Its certificates go with it (decision 019); the rows stay, so the CRL keeps listing them.
          await revokeCertificates(deps, trx, requestActor(c, deps.config), {
            where: 'owner',
            ids: [row.id],
            reason: 'affiliationChanged',
          });
          await deleteServiceUser(trx, row.id);
          return { action: 'DELETE', details: { user_name: row.user_name, kind: 'service' } };
        },
      }),
  );

  return app;
}
