import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import type { PermissionName } from '../../contract/permissions.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Tenant,
  type TenantCreate,
  type TenantFederation,
  type TenantList,
  type TenantUpdate,
  tenantCreateSchema,
  tenantDeleteQuerySchema,
  tenantExportQuerySchema,
  tenantFederationSchema,
  tenantIdParamsSchema,
  tenantListQuerySchema,
  tenantUnlinkSchema,
  tenantUpdateSchema,
} from '../../contract/schemas/tenants.ts';
import { isServiceEndDateAllowed, VALIDATION_TEXT } from '../../contract/validation.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { requireAuth, requirePermission } from '../http/authenticate.ts';
import {
  assertIfMatchPresent,
  assertWellFormedIfMatch,
  entityTag,
  ifMatchAdmits,
  PreconditionFailed,
} from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { hashPassword } from '../identity/passwords.ts';
import type { Principal } from '../identity/principal.ts';
import { utcDate } from '../licence/verify.ts';
import { ensureBuiltInRoles } from '../setup/seed.ts';
import { insertUser } from '../setup/users.ts';
import {
  ACCOUNT_NOT_FOUND,
  assertManageable,
  assertPermission,
  mayManage,
  requireSystemScope,
  scopeForbids,
} from './access.ts';
import { auditAccountChange } from './audit.ts';
import { TENANT_CSV_HEADER, tenantCsvLine } from './csv.ts';
import { DEFAULT_SORT, expiringCounts, listTenants, tenantBatches } from './list.ts';
import {
  deleteAccounts,
  findActivePartner,
  findTenant,
  insertAccount,
  type LockedAccount,
  lockVisibleAccount,
  lockVisibleAccounts,
  partnerWithRemainingAccounts,
  setFederation,
  updateAccount,
  userNameTaken,
} from './repository.ts';

/** Rows per query of the CSV export: one batch is all it holds in memory. */
const EXPORT_BATCH_SIZE = 1000;

const USER_NAME_IN_USE = 'administrator.user_name: already in use';
const FRIENDLY_IDENTIFIER_IN_USE = 'friendly_identifier: already in use';
const NOT_LINKED = 'The account is not linked to an external identity product.';

function notFound(): ApiError {
  return new ApiError(404, ACCOUNT_NOT_FOUND);
}

/** PostgreSQL's unique_violation, as both drivers report it. */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '23505' &&
    (error as { constraint?: unknown }).constraint === constraint
  );
}

/**
 * The service period of a new or edited account: the end date after today (unless it is the one the
 * account already has) and not before the start date.
 */
function assertServicePeriod(from: string, to: string, today: string, currentTo: string | null): void {
  if (to !== currentTo && !isServiceEndDateAllowed(to, today)) {
    throw new ApiError(400, `service_period.to: ${VALIDATION_TEXT.endDateNotInFuture}`);
  }
  if (to < from) throw new ApiError(400, `service_period.to: ${VALIDATION_TEXT.endDateBeforeStartDate}`);
}

/**
 * Who may edit an account: whoever may manage it; besides, a partner may rename its own primary
 * account and change its language, but not its service period (account administration §6).
 */
function assertEditable(principal: Principal, account: LockedAccount, update: TenantUpdate): void {
  if (mayManage(principal, account)) return;
  const ownPartnerAccount = principal.accessScope === 'partner' && account.id === principal.primaryAccountId;
  if (!ownPartnerAccount) throw scopeForbids(principal, 'edit');
  if (update.service_period.to !== account.service_to) {
    throw new ApiError(403, 'A partner cannot change the end date of its own primary account.');
  }
  if (update.service_period.from !== account.service_from) {
    throw new ApiError(403, 'A partner cannot change the start date of its own primary account.');
  }
}

/** The partner a new account goes under, as far as the caller's scope decides it. */
function partnerOfNewAccount(principal: Principal, form: TenantCreate): string | null {
  const requested = form.partner_account_id ?? null;
  switch (principal.accessScope) {
    case 'account':
      throw scopeForbids(principal, 'create');
    case 'partner':
      if (form.type !== 'standard') throw new ApiError(403, 'A partner can create only standard accounts.');
      if (requested !== null && requested !== principal.primaryAccountId) {
        throw new ApiError(403, 'A partner can create accounts only under its own partner account.');
      }
      return principal.primaryAccountId;
    case 'system':
      if (form.type === 'partner' && requested !== null) {
        throw new ApiError(400, 'partner_account_id: a partner account cannot be under another partner');
      }
      return requested;
  }
}

/**
 * Runs `change` on a visible account locked for the transaction: 404 for one the caller does not see,
 * then 403 without `permission`. In that order, so an account out of reach stays indistinguishable
 * from one that does not exist, whatever the caller's permissions.
 */
function changeAccount<T>(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  permission: PermissionName,
  change: (trx: Kysely<Database>, account: LockedAccount) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const account = await lockVisibleAccount(trx, principal, id);
    if (!account) throw notFound();
    assertPermission(principal, permission);
    return change(trx, account);
  });
}

/** Links (`link`) or unlinks (`null`) the account and records which external account it was. */
async function changeFederation(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: AppDeps,
  account: LockedAccount,
  link: TenantFederation | null,
): Promise<void> {
  await setFederation(trx, account.id, link, deps.now());
  await auditAccountChange(trx, c, deps, {
    action: 'UPDATE',
    accountId: account.id,
    details:
      link === null
        ? {
            federation: 'unlinked',
            provider: account.federation_provider,
            federated_account_id: account.federated_account_id,
          }
        : {
            federation: 'linked',
            provider: link.provider,
            federated_account_id: link.federated_account_id,
            federated_account_name: link.federated_account_name,
          },
  });
}

/** Changed fields as `{ field: { from, to } }`, for the audit trail. */
function changesOf(before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(after)
      .filter(([field, value]) => before[field] !== value)
      .map(([field, value]) => [field, { from: before[field], to: value }]),
  );
}

/** Accounts and tenants (/account/ui-api/v1), described in docs/api.md. */
export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  // For calls on no particular account; calls on one check the account first (see changeAccount).
  const mayView = requirePermission('VIEW_ACCOUNT');
  const mayChange = requirePermission('MANAGE_ACCOUNT');
  const today = () => utcDate(deps.now());

  app.get('/tenants', authenticated, mayView, validateQuery(tenantListQuerySchema), async (c) => {
    const { limit = DEFAULT_LIST_LIMIT, offset = 0, sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
    const list: TenantList = await listTenants(
      db,
      c.var.principal,
      filters,
      { limit, offset, sort },
      today(),
    );
    return c.json(list);
  });

  app.get('/tenants/export', authenticated, mayView, validateQuery(tenantExportQuerySchema), async (c) => {
    const { sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
    const day = today();
    const batches = tenantBatches(db, c.var.principal, filters, sort, day, EXPORT_BATCH_SIZE);
    // The first batch is read before answering, so a failure to start is a clean 500, not a cut file.
    const first = await batches.next();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const lines = first.done ? [] : first.value.map(tenantCsvLine);
        controller.enqueue(encoder.encode(TENANT_CSV_HEADER + lines.join('')));
        if (first.done) controller.close();
      },
      async pull(controller) {
        try {
          const next = await batches.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value.map(tenantCsvLine).join('')));
        } catch (error) {
          // The status line is gone by now: the client sees a cut transfer; the log says why.
          console.error(`${c.req.method} ${c.req.path} failed while streaming:`, error);
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="accounts-${day}.csv"`,
    });
  });

  for (const path of ['/tenants/expiring', '/account/expiringAccounts']) {
    app.get(path, authenticated, mayView, async (c) =>
      c.json(await expiringCounts(db, c.var.principal, today())),
    );
  }

  // After account/expiringAccounts, which this pattern would match too.
  for (const path of ['/tenant/:id', '/account/:id']) {
    app.get(path, authenticated, validateParams(tenantIdParamsSchema), async (c) => {
      const tenant: Tenant | undefined = await findTenant(
        db,
        c.var.principal,
        c.req.valid('param').id,
        deps.now(),
      );
      if (!tenant) throw notFound();
      assertPermission(c.var.principal, 'VIEW_ACCOUNT');
      c.header('ETag', entityTag(tenant.version));
      return c.json(tenant);
    });
  }

  app.put(
    '/tenant/:id',
    authenticated,
    validateParams(tenantIdParamsSchema),
    validateJson(tenantUpdateSchema),
    async (c) => {
      const principal = c.var.principal;
      const update = c.req.valid('json');
      const ifMatch = c.req.header('If-Match');
      assertWellFormedIfMatch(ifMatch, 'account');
      const id = c.req.valid('param').id;
      await changeAccount(db, principal, id, 'MANAGE_ACCOUNT', async (trx, account) => {
        if (account.system_account) throw new ApiError(409, 'The System Account cannot be edited.');
        assertEditable(principal, account, update);
        // Before the date rules: an edit made on an older version is refused whatever it holds.
        assertIfMatchPresent(ifMatch, 'account');
        if (!ifMatchAdmits(ifMatch, account.version)) {
          const current = await findTenant(trx, principal, account.id, deps.now());
          if (!current) throw notFound();
          throw new PreconditionFailed(
            'The account was changed meanwhile. Reload it and try again.',
            current,
            entityTag(current.version),
          );
        }
        assertServicePeriod(
          update.service_period.from,
          update.service_period.to,
          today(),
          account.service_to,
        );
        const changes = changesOf(account, {
          name: update.name,
          locale: update.locale,
          service_from: update.service_period.from,
          service_to: update.service_period.to,
        });
        if (Object.keys(changes).length === 0) return;
        await updateAccount(trx, account.id, update, deps.now());
        await auditAccountChange(trx, c, deps, {
          action: 'UPDATE',
          accountId: account.id,
          details: { changes },
        });
      });
      return c.body(null, 204);
    },
  );

  app.post('/tenants', authenticated, mayChange, validateJson(tenantCreateSchema), async (c) => {
    const principal = c.var.principal;
    const form = c.req.valid('json');
    const partnerAccountId = partnerOfNewAccount(principal, form);
    const day = today();
    const serviceFrom = form.service_period.from ?? day;
    assertServicePeriod(serviceFrom, form.service_period.to, day, null);
    // Hashed before the transaction: argon2 takes tens of milliseconds and must not hold locks.
    const passwordHash = await hashPassword(form.administrator.password);
    const administrator = form.administrator;

    const created = await db
      .transaction()
      .execute(async (trx) => {
        if (partnerAccountId !== null && !(await findActivePartner(trx, partnerAccountId))) {
          throw new ApiError(400, 'partner_account_id: must name an active partner account');
        }
        if (await userNameTaken(trx, administrator.user_name)) throw new ApiError(409, USER_NAME_IN_USE);
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
        if (!account) throw new ApiError(409, FRIENDLY_IDENTIFIER_IN_USE);
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
          locale: form.locale,
          now,
        });
        await auditAccountChange(trx, c, deps, {
          action: 'CREATE',
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
        await auditAccountChange(trx, c, deps, {
          action: 'CREATE',
          accountId: account.id,
          resource: { type: 'USER', id: userId },
          details: { user_name: administrator.user_name, access_scope: accessScope, roles: [role] },
        });
        return account;
      })
      .catch((error: unknown) => {
        // Lost a race with another request creating the same user name after the check above.
        if (isUniqueViolation(error, 'users_user_name_key_key')) throw new ApiError(409, USER_NAME_IN_USE);
        throw error;
      });

    const tenant = await findTenant(db, principal, created.id, deps.now());
    if (!tenant) throw new Error('A created account is not visible to its creator.');
    c.header('Location', apiPaths.tenants.byId(created.id));
    return c.json(tenant, 201);
  });

  app.delete('/tenants', authenticated, validateQuery(tenantDeleteQuerySchema), async (c) => {
    const principal = c.var.principal;
    const ids = [...new Set(c.req.valid('query').ids)];
    await db.transaction().execute(async (trx) => {
      const found = await lockVisibleAccounts(trx, principal, ids);
      // All or nothing, and which of the ids is out of reach is not said.
      if (found.length !== ids.length) throw notFound();
      assertPermission(principal, 'MANAGE_ACCOUNT');
      for (const account of found) {
        if (principal.accessScope === 'account') throw scopeForbids(principal, 'delete');
        if (account.system_account) throw new ApiError(409, 'The System Account cannot be deleted.');
        if (account.id === principal.primaryAccountId) {
          throw new ApiError(409, 'Your own primary account cannot be deleted.');
        }
        assertManageable(principal, account, 'delete');
      }
      const partner = await partnerWithRemainingAccounts(trx, ids);
      if (partner) {
        throw new ApiError(409, `Partner account "${partner.name}" has accounts; delete or move them first.`);
      }
      const usersPerAccount = await deleteAccounts(trx, found);
      for (const account of found) {
        await auditAccountChange(trx, c, deps, {
          action: 'DELETE',
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
  });

  app.post(
    '/tenant/:id/unlink',
    authenticated,
    validateParams(tenantIdParamsSchema),
    validateJson(tenantUnlinkSchema),
    async (c) => {
      const principal = c.var.principal;
      const id = c.req.valid('param').id;
      await changeAccount(db, principal, id, 'MANAGE_ACCOUNT', async (trx, account) => {
        assertManageable(principal, account, 'unlink');
        if (account.federation_status !== 'linked') throw new ApiError(409, NOT_LINKED);
        await changeFederation(trx, c, deps, account, null);
      });
      return c.body(null, 204);
    },
  );

  return app;
}

/**
 * PUT /account/api/v1/tenants/{id}/federation: the identity product links one of its accounts to a
 * platform account. System scope only; described in docs/api.md.
 */
export function accountFederationRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();

  app.put(
    '/tenants/:id/federation',
    requireAuth(deps),
    requireSystemScope('MANAGE_TENANT'),
    validateParams(tenantIdParamsSchema),
    validateJson(tenantFederationSchema),
    async (c) => {
      const principal = c.var.principal;
      const link = c.req.valid('json');
      const id = c.req.valid('param').id;
      await changeAccount(db, principal, id, 'MANAGE_TENANT', async (trx, account) => {
        if (account.system_account) {
          throw new ApiError(409, 'The System Account cannot be linked to an external identity product.');
        }
        await changeFederation(trx, c, deps, account, link);
      });
      return c.body(null, 204);
    },
  );

  return app;
}
