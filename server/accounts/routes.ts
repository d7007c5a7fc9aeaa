import { Hono } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import {
  expiringTenantsSchema,
  type Tenant,
  type TenantFederation,
  type TenantList,
  tenantCreateSchema,
  tenantDeleteQuerySchema,
  tenantExportQuerySchema,
  tenantFederationSchema,
  tenantIdParamsSchema,
  tenantListQuerySchema,
  tenantListSchema,
  tenantSchema,
  tenantUnlinkSchema,
  tenantUpdateSchema,
} from '../../contract/schemas/tenants.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, changesNothing, requestActor, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { assertPermission, requirePermission, requireSystemScope } from '../authorization/permissions.ts';
import { revokeCertificates } from '../ca/index.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { cancelPendingEnrollmentsOf } from '../enrollments/index.ts';
import type { AppEnv } from '../http/app-env.ts';
import { writtenCsvResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { hashPassword, inPasswordHashingTurn } from '../identity/passwords.ts';
import type { Principal } from '../identity/principal.ts';
import { revokeAccountSessions } from '../identity/sessions.ts';
import { type ChangeSpec, type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import {
  assertUserNameFree,
  ensureBuiltInRoles,
  insertUser,
  probingUserNames,
  UserNameInUse,
} from '../users/index.ts';
import { TENANT_CSV_HEADER } from './csv.ts';
import { tenantCsvBody } from './export.ts';
import { DEFAULT_SORT, expiringCounts, listTenants } from './list.ts';
import {
  type AccountRow,
  deleteAccounts,
  findActivePartner,
  findTenant,
  hasActiveAccounts,
  insertAccount,
  partnerWithRemainingAccounts,
  setActive,
  setFederation,
  updateAccount,
  usersOfPrimaryAccounts,
  visibleAccount,
  visibleAccounts,
} from './repository.ts';
import {
  assertDeletable,
  assertEditable,
  assertLinkable,
  assertServicePeriod,
  assertStatusChangeable,
  assertUnlinkable,
  inUse,
  partnerHasAccounts,
  partnerHasActiveAccounts,
  partnerInactive,
  partnerNotActive,
  partnerOfNewAccount,
} from './rules.ts';

const ADMINISTRATOR_USER_NAME = 'administrator.user_name';
const ADMINISTRATOR_USER_NAME_IN_USE = `${ADMINISTRATOR_USER_NAME}: already in use`;

/** Fields of an account whose old and new values its UPDATE events keep: none of them is personal. */
const ACCOUNT_FIELDS = ['name', 'locale', 'service_from', 'service_to'] as const;
const FEDERATION_FIELDS = [
  'federation_status',
  'federation_provider',
  'federated_account_id',
  'federated_account_name',
  'federated_account_details_url',
] as const;

/** The account's link to an external identity product as its columns hold it; `null` unlinks. */
function federationColumns(
  link: TenantFederation | null,
): Pick<AccountRow, (typeof FEDERATION_FIELDS)[number]> {
  return {
    federation_status: link === null ? 'unlinked' : 'linked',
    federation_provider: link?.provider ?? null,
    federated_account_id: link?.federated_account_id ?? null,
    federated_account_name: link?.federated_account_name ?? null,
    federated_account_details_url: link?.details_url ?? null,
  };
}

/**
 * An account as the versioned-resource helper addresses it. Its reach is part of the query: an
 * account the caller does not see is not found. Reading needs VIEW_ACCOUNT, changing MANAGE_ACCOUNT;
 * the 412 body is the account as GET tenant/{id} answers it.
 */
function accountKind(deps: AppDeps): ResourceKind<{ id: string }, AccountRow> {
  return {
    label: 'Account',
    resourceType: 'ACCOUNT',
    find: async (db, principal, { id }, lock) => {
      const row = await visibleAccount(db, principal, id, lock);
      return row && { row, accountId: row.id };
    },
    authorize: (principal, _found, access) =>
      assertPermission(principal, access === 'view' ? 'VIEW_ACCOUNT' : 'MANAGE_ACCOUNT'),
    represent: async (db, principal, { row }) => {
      const tenant = await findTenant(db, principal, row.id, deps.now());
      if (!tenant) throw new Error('A locked account is no longer visible to the caller.');
      return tenant;
    },
  };
}

/** Links (`link`) or unlinks (`null`) the account; the trail keeps the link before and after. */
function changeFederation(
  link: TenantFederation | null,
  permit: ChangeSpec<AccountRow>['permit'],
): ChangeSpec<AccountRow> {
  return {
    // Neither is queued offline, and the identity product keeps no ETag: one sent is honoured.
    precondition: 'honoured',
    permit,
    apply: async (trx, { row }, now) => {
      const after = federationColumns(link);
      await setFederation(trx, row.id, link, now);
      return { action: 'UPDATE', details: updateDetails(row, after, FEDERATION_FIELDS) };
    },
  };
}

/**
 * Deactivates (`active` false) or reactivates an account (decision 017). Deactivating ends the
 * sessions of the account's users in the same transaction, so they are out on their next request.
 */
function changeStatus(principal: Principal, active: boolean): ChangeSpec<AccountRow> {
  return {
    // Not queued offline, but the console always knows the version it shows: a status changed by
    // someone else meanwhile is a 412, not a silent second change.
    precondition: 'required',
    permit: ({ row }) => assertStatusChangeable(principal, row, active ? 'reactivate' : 'deactivate'),
    // The other accounts' states are read here, under the account's lock: creating or reactivating
    // an account under a partner share-locks the partner, so the check still holds at commit.
    apply: async (trx, { row }, now) => {
      if (row.active === active) return null;
      if (!active && row.type === 'partner' && (await hasActiveAccounts(trx, row.id))) {
        throw partnerHasActiveAccounts();
      }
      if (
        active &&
        row.partner_account_id !== null &&
        !(await findActivePartner(trx, row.partner_account_id))
      ) {
        throw partnerInactive();
      }
      await setActive(trx, row.id, active, now);
      if (!active) await revokeAccountSessions(trx, row.id, 'account_deactivated', now);
      return { action: 'UPDATE', details: updateDetails(row, { active }, ['active']) };
    },
  };
}

/** Accounts and tenants (/account/ui-api/v1), described in docs/api.md. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  // For calls on no particular account; calls on one check the account first (versionedResource).
  const mayView = requirePermission('VIEW_ACCOUNT');
  const mayChange = requirePermission('MANAGE_ACCOUNT');
  const today = () => utcDate(deps.now());
  const accounts = versionedResource(deps, accountKind(deps));

  app.get(
    '/tenants',
    describeOperation({
      tag: 'Accounts',
      summary: 'The accounts the caller sees (view account), filtered, sorted and a page at a time.',
      success: { status: 200, description: 'Accounts', schema: tenantListSchema },
      failures: [400, 403],
    }),
    authenticated,
    mayView,
    validateQuery(tenantListQuerySchema),
    async (c) => {
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      const list: TenantList = await listTenants(db, c.var.principal, filters, page, today());
      return c.json(list);
    },
  );

  app.get(
    '/tenants/export',
    describeOperation({
      tag: 'Accounts',
      summary: 'The same accounts, filtered and sorted, all of them, as a CSV attachment (text/csv).',
      success: { status: 200, description: 'CSV file, header row first' },
      failures: [400, 403],
    }),
    authenticated,
    mayView,
    validateQuery(tenantExportQuerySchema),
    (c) => {
      const { sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      const day = today();
      return writtenCsvResponse(c, {
        header: TENANT_CSV_HEADER,
        body: tenantCsvBody(db, c.var.principal, filters, sort, day),
        filename: `accounts-${day}.csv`,
      });
    },
  );

  for (const path of ['/tenants/expiring', '/account/expiringAccounts']) {
    app.get(
      path,
      describeOperation({
        tag: 'Accounts',
        summary: 'How many active accounts the caller sees end within 30 and within 60 days.',
        success: { status: 200, description: 'Counts keyed "30" and "60"', schema: expiringTenantsSchema },
        failures: [403],
      }),
      authenticated,
      mayView,
      async (c) => c.json(await expiringCounts(db, c.var.principal, today())),
    );
  }

  // After account/expiringAccounts, which this pattern would match too.
  for (const path of ['/tenant/:id', '/account/:id']) {
    app.get(
      path,
      describeOperation({
        tag: 'Accounts',
        summary: 'The whole record of an account the caller sees (view account); ETag is its version.',
        success: { status: 200, description: 'Account', schema: tenantSchema, etag: true },
        failures: [400, 403, 404],
      }),
      authenticated,
      validateParams(tenantIdParamsSchema),
      async (c) => {
        const tenant: Tenant | undefined = await findTenant(
          db,
          c.var.principal,
          c.req.valid('param').id,
          deps.now(),
        );
        if (!tenant) throw new ApiError(404, ACCOUNT_NOT_FOUND);
        assertPermission(c.var.principal, 'VIEW_ACCOUNT');
        c.header('ETag', entityTag(tenant.version));
        return c.json(tenant);
      },
    );
  }

  app.put(
    '/tenant/:id',
    describeOperation({
      tag: 'Accounts',
      summary:
        "Changes an account's name, language and service period (manage account); If-Match is required.",
      success: { status: 204, description: 'Account changed' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: tenantSchema },
    }),
    authenticated,
    validateParams(tenantIdParamsSchema),
    validateJson(tenantUpdateSchema),
    (c) => {
      const update = c.req.valid('json');
      return accounts.change(c, c.req.valid('param'), {
        precondition: 'required',
        permit: ({ row }) => assertEditable(c.var.principal, row),
        // After the precondition: an edit made on an older version is refused whatever it holds.
        apply: async (trx, { row }, now) => {
          assertServicePeriod(update.service_period, utcDate(now), row.service_to);
          const details = updateDetails(
            row,
            {
              name: update.name,
              locale: update.locale,
              service_from: update.service_period.from,
              service_to: update.service_period.to,
            },
            ACCOUNT_FIELDS,
          );
          if (changesNothing(details)) return null;
          await updateAccount(trx, row.id, update, now);
          return { action: 'UPDATE', details };
        },
      });
    },
  );

  app.post(
    '/tenants',
    describeOperation({
      tag: 'Accounts',
      summary:
        'Creates a standard or partner account with its first administrator (manage account; system or partner scope).',
      success: { status: 201, description: 'Account created; Location names it', schema: tenantSchema },
      failures: [400, 403, 409, 413, 415],
    }),
    authenticated,
    mayChange,
    validateJson(tenantCreateSchema),
    async (c) => {
      const principal = c.var.principal;
      const form = c.req.valid('json');
      const partnerAccountId = partnerOfNewAccount(principal, form);
      const day = today();
      const serviceFrom = form.service_period.from ?? day;
      assertServicePeriod({ from: serviceFrom, to: form.service_period.to }, day, null);
      const administrator = form.administrator;
      // The administrator's user name is checked as a probe (decision 041), which a caller past its
      // budget is refused before any work.
      const created = await probingUserNames(db, principal, deps.now(), async () => {
        // Hashed before the transaction: argon2 takes tens of milliseconds and must not hold locks.
        const passwordHash = await inPasswordHashingTurn(`user:${principal.userId}`, () =>
          hashPassword(administrator.password),
        );
        // Not through versionedResource: a new account has no version to check, and its creation
        // makes two objects, the account and its first administrator, each with its own event.
        return db
          .transaction()
          .execute(async (trx) => {
            if (partnerAccountId !== null && !(await findActivePartner(trx, partnerAccountId))) {
              throw partnerNotActive();
            }
            await assertUserNameFree(
              trx,
              principal,
              administrator.user_name,
              ADMINISTRATOR_USER_NAME,
              ADMINISTRATOR_USER_NAME_IN_USE,
            );
            const now = deps.now();
            const account = await insertAccount(trx, {
              name: form.name,
              locale: form.locale,
              type: form.type,
              partnerAccountId,
              friendlyIdentifier: form.friendly_identifier ?? null,
              serviceFrom,
              serviceTo: form.service_period.to,
              now,
            });
            if (!account) throw inUse('friendly_identifier');
            const roles = await ensureBuiltInRoles(trx, now);
            const role = form.type === 'partner' ? 'partner_administrator' : 'account_administrator';
            const accessScope = form.type === 'partner' ? 'partner' : 'account';
            const userId = await insertUser(trx, {
              userName: administrator.user_name,
              firstName: administrator.first_name,
              lastName: administrator.last_name,
              email: administrator.email,
              accessScope,
              primaryAccountId: account.id,
              passwordHash,
              roleIds: [roles[role]],
              emailVerified: true,
              locale: form.locale,
              now,
            });
            await auditChange(trx, c, deps, {
              action: 'CREATE',
              resourceType: 'ACCOUNT',
              resourceId: account.id,
              accountId: account.id,
              details: {
                name: form.name,
                type: form.type,
                friendly_identifier: account.friendlyIdentifier,
                partner_account_id: partnerAccountId,
                service_period: { from: serviceFrom, to: form.service_period.to },
                administrator: { id: userId, user_name: administrator.user_name },
              },
            });
            await auditChange(trx, c, deps, {
              action: 'CREATE',
              resourceType: 'USER',
              resourceId: userId,
              accountId: account.id,
              details: { user_name: administrator.user_name, access_scope: accessScope, roles: [role] },
            });
            return account;
          })
          .catch((error: unknown) => {
            // Lost a race with another request creating the same user name after the check above;
            // whose it is the race does not tell, so it counts as outside the caller's reach.
            if (isUniqueViolation(error, 'users_user_name_key_key')) {
              throw new UserNameInUse(ADMINISTRATOR_USER_NAME_IN_USE, ADMINISTRATOR_USER_NAME, 1);
            }
            throw error;
          });
      });

      const tenant = await findTenant(db, principal, created.id, deps.now());
      if (!tenant) throw new Error('A created account is not visible to its creator.');
      c.header('Location', apiPaths.tenants.byId(created.id));
      return c.json(tenant, 201);
    },
  );

  // Not through versionedResource: one request deletes several accounts, all or none, without
  // versions (the list it is made from shows none).
  app.delete(
    '/tenants',
    describeOperation({
      tag: 'Accounts',
      summary:
        'Deletes accounts with their users, roles and organizations, all or none (manage account), and revokes their certificates (cessationOfOperation).',
      success: { status: 204, description: 'Accounts deleted' },
      failures: [400, 403, 404, 409],
    }),
    authenticated,
    validateQuery(tenantDeleteQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const ids = [...new Set(c.req.valid('query').ids)];
      await db.transaction().execute(async (trx) => {
        const found = await visibleAccounts(trx, principal, ids, true);
        // All or nothing, and which of the ids is out of reach is not said.
        if (found.length !== ids.length) throw new ApiError(404, ACCOUNT_NOT_FOUND);
        assertPermission(principal, 'MANAGE_ACCOUNT');
        for (const account of found) assertDeletable(principal, account);
        const partner = await partnerWithRemainingAccounts(trx, ids);
        if (partner) throw partnerHasAccounts(partner.name);
        // Every certificate of the accounts goes with them; so do those of the users deleted with them
        // (their primary account) that another account holds. The rows stay for the CRLs (decision 019).
        const members = await usersOfPrimaryAccounts(trx, ids);
        await revokeCertificates(
          deps,
          trx,
          requestActor(c, deps.config),
          { where: 'account', ids, reason: 'cessationOfOperation' },
          { where: 'owner', ids: members.map((user) => user.id), reason: 'affiliationChanged' },
        );
        // Their enrollments in other accounts stop too; those of the accounts go with them.
        await cancelPendingEnrollmentsOf(
          deps,
          trx,
          requestActor(c, deps.config),
          members.map((user) => user.id),
        );
        const usersPerAccount = await deleteAccounts(trx, found);
        for (const account of found) {
          await auditChange(trx, c, deps, {
            action: 'DELETE',
            resourceType: 'ACCOUNT',
            resourceId: account.id,
            accountId: account.id,
            details: {
              name: account.name,
              type: account.type,
              friendly_identifier: account.friendly_identifier,
              users_deleted: usersPerAccount.get(account.id) ?? 0,
            },
          });
        }
      });
      return c.body(null, 204);
    },
  );

  app.post(
    '/tenant/:id/unlink',
    describeOperation({
      tag: 'Accounts',
      summary:
        'Unlinks an account from its external identity product, on the typed word UNLINK (manage account).',
      success: { status: 204, description: 'Account unlinked' },
      failures: [400, 403, 404, 409, 415],
      ifMatch: { required: false, current: tenantSchema },
    }),
    authenticated,
    validateParams(tenantIdParamsSchema),
    validateJson(tenantUnlinkSchema),
    (c) =>
      accounts.change(
        c,
        c.req.valid('param'),
        changeFederation(null, ({ row }) => assertUnlinkable(c.var.principal, row)),
      ),
  );

  for (const [path, active, summary, description] of [
    [
      '/tenant/:id/deactivate',
      false,
      'Deactivates an account and ends its users’ sessions; they may sign in again, holding no permission (manage account; decision 017).',
      'Account deactivated, or already inactive',
    ],
    [
      '/tenant/:id/activate',
      true,
      'Reactivates an account (manage account; decision 017).',
      'Account active',
    ],
  ] as const) {
    app.post(
      path,
      describeOperation({
        tag: 'Accounts',
        summary,
        success: { status: 204, description },
        failures: [403, 404, 409],
        ifMatch: { required: true, current: tenantSchema },
      }),
      authenticated,
      validateParams(tenantIdParamsSchema),
      (c) => accounts.change(c, c.req.valid('param'), changeStatus(c.var.principal, active)),
    );
  }

  return app;
}

/**
 * PUT /account/api/v1/tenants/{id}/federation: the identity product links one of its accounts to a
 * platform account. System scope only; described in docs/api.md.
 */
export function accountFederationRoutes(deps: AppDeps): Hono<AppEnv> {
  // The identity product's calls need MANAGE_TENANT (checked with the scope before the account is
  // looked up), not MANAGE_ACCOUNT.
  const accounts = versionedResource(deps, {
    ...accountKind(deps),
    authorize: (principal) => assertPermission(principal, 'MANAGE_TENANT'),
  });

  return new Hono<AppEnv>().put(
    '/tenants/:id/federation',
    describeOperation({
      tag: 'Accounts',
      summary:
        'Links an account to an account of an external identity product (system scope, manage tenant).',
      success: { status: 204, description: 'Account linked' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: false, current: tenantSchema },
    }),
    requireAuth(deps),
    requireSystemScope('MANAGE_TENANT'),
    validateParams(tenantIdParamsSchema),
    validateJson(tenantFederationSchema),
    (c) =>
      accounts.change(
        c,
        c.req.valid('param'),
        changeFederation(c.req.valid('json'), ({ row }) => assertLinkable(row)),
      ),
  );
}
