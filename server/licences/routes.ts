import { Hono } from 'hono';
import * as v from 'valibot';
import { APPLICATIONS } from '../../contract/applications.ts';
import { LICENCE_TYPES } from '../../contract/licences.ts';
import { APPLICATION_CODES, type ApplicationCode, type PermissionName } from '../../contract/permissions.ts';
import {
  type AccountLicence,
  accountLicenceListSchema,
  accountLicenceSchema,
  licenceAppParamsSchema,
  licenceChangeResultSchema,
  licenceChangeSchema,
  licenceDetailsSchema,
  licenceHistoryDetailsQuerySchema,
  licenceHistoryListSchema,
  licenceHistoryQuerySchema,
  licenceUsageReportSchema,
  licenceUsageSchema,
} from '../../contract/schemas/licences.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, changesNothing, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { assertAnyPermission, forbidden } from '../authorization/permissions.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { assertWellFormedIfMatch, entityTag } from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { findCurrentLicence, storedPayload, systemPoolLimit } from '../licence/index.ts';
import {
  assertChangeOnVersion,
  type ResourceKind,
  versionedResource,
} from '../resources/versioned-resource.ts';
import {
  assertMayAllocateTo,
  authorizeLicence,
  canEditLicence,
  manageLicencePermission,
  mayView,
  viewLicencePermission,
} from './access.ts';
import { DEFAULT_HISTORY_ZONE, historyItem } from './history.ts';
import { type AccountLicenceState, licenceState } from './pools.ts';
import {
  allocatedToChildren,
  findReachableAccount,
  findSystemAccount,
  historyPage,
  insertHistory,
  typeKey,
  writeReportedUse,
  writeTotals,
} from './repository.ts';
import { assertReportableTypes, assertTypesOfApplication, plannedChanges } from './rules.ts';

/** The applications with licence types: the account management application has none (J-38). */
const LICENSED_APPLICATIONS = APPLICATION_CODES.filter((app) => LICENCE_TYPES[app].length > 0);

/** Every licence permission of the applications with licence types: any of them shows some licence. */
const ANY_LICENCE_PERMISSION = LICENSED_APPLICATIONS.flatMap((app) => [
  viewLicencePermission(app),
  manageLicencePermission(app),
]) as [PermissionName, ...PermissionName[]];

const accountParamsSchema = v.pick(licenceAppParamsSchema, ['id']);
const appParamsSchema = v.pick(licenceAppParamsSchema, ['app']);

/** An account's licence of one application, addressed by account and application. */
interface LicenceObject {
  id: string;
  version: number;
  state: AccountLicenceState;
}

/**
 * A licence section (J-06, J-07). `visible`: the application has licence types, and the account holds
 * some of them or its parent has some to give; `canEdit`: the caller may change it.
 */
function section(principal: Principal, state: AccountLicenceState): AccountLicence {
  const { account, app } = state;
  const hasTypes = state.rows.length > 0;
  return {
    id: app,
    title: APPLICATIONS[app].name,
    canEdit: hasTypes && canEditLicence(principal, account, app),
    visible: hasTypes && state.rows.some((row) => row.totalAllocated !== 0 || row.allocationAvailable !== 0),
    data: state.rows.map((row) => ({
      id: `${account.id}:${app}:${row.feature}`,
      featureId: row.feature,
      licenseType: row.feature,
      remaining: row.remaining,
      overUse: row.overUse,
      used: row.used,
      totalAllocated: row.totalAllocated,
      licenseAllocation: row.allocationAvailable,
      metered: row.metered,
    })),
    version: state.version,
    has_dsm_license: state.hasDocumentSigningLicence,
    parent: { id: state.parent.id, name: state.parent.name },
  };
}

/** The licence per application as J-08 names it: each type's limit, use and remainder. */
function usageOf(state: AccountLicenceState) {
  return {
    app_code: state.app,
    features: state.rows.map((row) => ({
      name: row.feature,
      attributes: {
        limit: row.totalAllocated,
        used: row.used,
        remaining: row.remaining,
        over_use: row.overUse,
      },
    })),
  };
}

function licenceKind(deps: AppDeps): ResourceKind<{ id: string; app: ApplicationCode }, LicenceObject> {
  return {
    label: 'Licence',
    resourceType: 'LICENSE',
    find: async (db, principal, { id, app }, lock) => {
      const account = await findReachableAccount(db, principal, id);
      if (!account) return undefined;
      const state = await licenceState(db, account, app, deps.now(), lock);
      return { row: { id: account.id, version: state.version, state }, accountId: account.id };
    },
    authorize: (principal, { row }, access) => authorizeLicence(principal, row.state.app, access),
    represent: async (_db, principal, { row }) => section(principal, row.state),
  };
}

/**
 * 403 unless the caller is system scope holding one of `permissions`: for the platform's licence and
 * pools, and for the use the platform's applications report.
 */
function assertSystemScope(principal: Principal, permissions: [PermissionName, ...PermissionName[]]) {
  if (principal.accessScope !== 'system') throw forbidden(permissions[0]);
  assertAnyPermission(principal, permissions);
}

/**
 * Licences per account (decision 022 §1–§3): the sections of an account, the change of one
 * application's allocations, the use applications report, the history, and the system pools.
 */
export function licenceAllocationRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const authenticated = requireAuth(deps);
  const licences = versionedResource(deps, licenceKind(deps));
  const byApp = validateParams(licenceAppParamsSchema);

  /** The account within reach and the applications whose licences the caller sees; 403 for none. */
  async function historyScope(principal: Principal, id: string) {
    const account = await findReachableAccount(db, principal, id);
    if (!account) throw new ApiError(404, ACCOUNT_NOT_FOUND);
    assertAnyPermission(principal, ANY_LICENCE_PERMISSION);
    return LICENSED_APPLICATIONS.filter((app) => mayView(principal, app));
  }

  return (
    new Hono<AppEnv>()
      .get(
        '/account/:id/licenses',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "An account's licence sections, one per application with licence types whose view or manage licence permission the caller holds, in catalogue order; an account out of reach is 404, no licence permission at all 403.",
          success: { status: 200, description: 'Licence sections', schema: accountLicenceListSchema },
          failures: [400, 403, 404],
        }),
        authenticated,
        validateParams(accountParamsSchema),
        async (c) => {
          const principal = c.var.principal;
          const account = await findReachableAccount(db, principal, c.req.valid('param').id);
          if (!account) throw new ApiError(404, ACCOUNT_NOT_FOUND);
          assertAnyPermission(principal, ANY_LICENCE_PERMISSION);
          const items = await Promise.all(
            LICENSED_APPLICATIONS.filter((app) => mayView(principal, app)).map(async (app) =>
              section(principal, await licenceState(db, account, app, deps.now(), false)),
            ),
          );
          return c.json({ items });
        },
      )
      .get(
        '/account/:id/license/usage/:app',
        describeOperation({
          tag: 'Licences per account',
          summary: "An account's use of each type of one application, with its limit and remainder (J-36).",
          success: { status: 200, description: 'Use', schema: licenceUsageSchema },
          failures: [400, 403, 404],
        }),
        authenticated,
        byApp,
        async (c) => {
          const found = await licences.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
          return c.json(usageOf(found.row.state));
        },
      )
      // J-36: the use of a type its application counts, reported by that application. Only system
      // scope reports (the platform's applications act as service users of the system account):
      // an account's administrators could otherwise lower their own use to free their licence.
      .put(
        '/account/:id/license/usage/:app',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "The use an application reports of an account's types it counts itself (J-36); metered types are counted by the platform and refused. System scope with the application's manage licence permission; a partner's or the System Account's use is what it allocated (409).",
          success: { status: 204, description: 'Use stored' },
          failures: [400, 403, 404, 409, 413, 415],
        }),
        authenticated,
        byApp,
        validateJson(licenceUsageReportSchema),
        async (c) => {
          const principal = c.var.principal;
          const params = c.req.valid('param');
          const { usage } = c.req.valid('json');
          assertReportableTypes(params.app, usage);
          await db.transaction().execute(async (trx) => {
            const found = await licences.locate(trx, principal, params, 'view', true);
            assertSystemScope(principal, [manageLicencePermission(params.app)]);
            const { state } = found.row;
            if (state.account.system_account || state.account.type === 'partner') {
              throw new ApiError(
                409,
                "A partner's or the system's use is what it allocated; it is not reported.",
              );
            }
            const before = Object.fromEntries(
              state.rows.map((row) => [`${params.app}.${row.feature}.used`, row.used]),
            );
            const after = {
              ...before,
              ...Object.fromEntries(
                usage.map((entry) => [`${params.app}.${entry.feature}.used`, entry.used]),
              ),
            };
            const details = updateDetails(before, after, Object.keys(after));
            if (changesNothing(details)) return;
            await writeReportedUse(
              trx,
              state.account.id,
              params.app,
              new Map(usage.map((entry) => [entry.feature, entry.used])),
            );
            await auditChange(trx, c, deps, {
              action: 'UPDATE',
              resourceType: 'LICENSE',
              resourceId: state.account.id,
              accountId: state.account.id,
              details,
            });
          });
          return c.body(null, 204);
        },
      )
      .get(
        '/account/:id/license/:app',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "An account's licence of one application (J-06, J-07): each type's total, use, remainder and what the parent can still give; ETag is the version of the account's allocations of the application. The account management application has no rows (J-38).",
          success: { status: 200, description: 'Licence section', schema: accountLicenceSchema, etag: true },
          failures: [400, 403, 404],
        }),
        authenticated,
        byApp,
        (c) => licences.read(c, c.req.valid('param')),
      )
      .put(
        '/account/:id/license/:app',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "Adds to, subtracts from or resets an account's allocations of one application (J-11 … J-24, J-32), checked under the pool's row locks; needs manage account and the application's manage licence permission, on an account the caller allocates to (system scope: any but the System Account; a partner: its accounts). Writes a history row per changed type and one audit event. If-Match is required.",
          success: {
            status: 200,
            description: 'Licence and event',
            schema: licenceChangeResultSchema,
            etag: true,
          },
          failures: [400, 403, 404, 413, 415],
          ifMatch: { required: true, current: accountLicenceSchema },
        }),
        authenticated,
        byApp,
        validateJson(licenceChangeSchema),
        async (c) => {
          const principal = c.var.principal;
          const params = c.req.valid('param');
          const change = c.req.valid('json');
          const { changes } = change;
          const ifMatch = c.req.header('If-Match');
          assertWellFormedIfMatch(ifMatch, 'licence');
          assertTypesOfApplication(params.app, changes);
          const now = deps.now();
          const answer = await db.transaction().execute(async (trx) => {
            const found = await licences.locate(trx, principal, params, 'manage', true);
            const { state } = found.row;
            assertMayAllocateTo(principal, state.account);
            await assertChangeOnVersion(ifMatch, 'required', {
              subject: 'licence',
              changed: 'Licence has changed since it was read; reload it and apply the change again.',
              version: state.version,
              current: () => section(principal, state),
            });
            const entries = plannedChanges(state, change);
            // A change that changes nothing writes nothing and records nothing.
            if (entries.length === 0) return { state, entries };
            await writeTotals(
              trx,
              state.account.id,
              params.app,
              new Map(entries.map((e) => [e.feature, e.limit])),
            );
            await insertHistory(
              trx,
              state.account.id,
              { id: principal.userId, name: principal.userName },
              entries,
              now,
            );
            const field = (feature: string) => `${params.app}.${feature}`;
            await auditChange(trx, c, deps, {
              action: 'UPDATE',
              resourceType: 'LICENSE',
              resourceId: state.account.id,
              accountId: state.account.id,
              details: updateDetails(
                Object.fromEntries(
                  entries.map((entry) => [field(entry.feature), entry.limit - entry.quantity]),
                ),
                Object.fromEntries(entries.map((entry) => [field(entry.feature), entry.limit])),
                entries.map((entry) => field(entry.feature)),
              ),
            });
            return { state: await licenceState(trx, state.account, params.app, now, false), entries };
          });
          c.header('ETag', entityTag(answer.state.version));
          return c.json({
            licence: section(principal, answer.state),
            event: {
              features: answer.entries.map((entry) => ({
                name: entry.feature,
                quantity: entry.quantity,
                updated_limit: entry.limit,
              })),
            },
          });
        },
      )
      // Before `license/limit/:id/:app`, which would take `history` for an application.
      .get(
        '/license/limit/:id/history',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "A page of an account's licence history (J-41, J-42), newest first unless sorted otherwise, of the applications whose licences the caller sees; each item's date in the asked IANA time zone (UTC without); the actor's name to system scope only (J-43).",
          success: { status: 200, description: 'History page', schema: licenceHistoryListSchema },
          failures: [400, 403, 404],
        }),
        authenticated,
        validateParams(accountParamsSchema),
        validateQuery(licenceHistoryQuerySchema),
        async (c) => {
          const principal = c.var.principal;
          const { id } = c.req.valid('param');
          const query = c.req.valid('query');
          const apps = await historyScope(principal, id);
          const { rows, ...total } = await historyPage(db, id, apps, {
            limit: Number(query.limit ?? 10),
            offset: Number(query.offset ?? 0),
            direction: query.sort === 'timestamp:asc' ? 'asc' : 'desc',
          });
          const zone = query.timezone ?? DEFAULT_HISTORY_ZONE;
          return c.json({ items: rows.map((row) => historyItem(row, principal, zone)), ...total });
        },
      )
      .get(
        '/license/limit/:id/history-details',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "Every row of an account's licence history, oldest first, for the CSV and the chart; dates in the asked time zone.",
          success: { status: 200, description: 'History', schema: licenceHistoryListSchema },
          failures: [400, 403, 404],
        }),
        authenticated,
        validateParams(accountParamsSchema),
        validateQuery(licenceHistoryDetailsQuerySchema),
        async (c) => {
          const principal = c.var.principal;
          const { id } = c.req.valid('param');
          const apps = await historyScope(principal, id);
          const { rows, ...total } = await historyPage(db, id, apps, null);
          const zone = c.req.valid('query').timezone ?? DEFAULT_HISTORY_ZONE;
          return c.json({ items: rows.map((row) => historyItem(row, principal, zone)), ...total });
        },
      )
      .get(
        '/license/limit/:id/:app',
        describeOperation({
          tag: 'Licences per account',
          summary:
            "An account's allocations of one application: each type's limit, use and remainder (J-08, J-37).",
          success: { status: 200, description: 'Allocations', schema: licenceUsageSchema },
          failures: [400, 403, 404],
        }),
        authenticated,
        byApp,
        async (c) => {
          const found = await licences.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
          return c.json(usageOf(found.row.state));
        },
      )
      .get(
        '/license/details',
        describeOperation({
          tag: 'Licence',
          summary:
            "The installed licence and its system pools: each licence type's limit (-1 unlimited) and what the system gave its accounts; system scope with view or manage licence. 404 before a licence is installed.",
          success: { status: 200, description: 'Licence and pools', schema: licenceDetailsSchema },
          failures: [403, 404],
        }),
        authenticated,
        async (c) => {
          assertSystemScope(c.var.principal, ['VIEW_LICENSE', 'MANAGE_LICENSE']);
          const licence = await findCurrentLicence(db);
          if (!licence) throw new ApiError(404, 'No licence is installed.');
          const payload = storedPayload(licence);
          const given = await allocatedToChildren(db, await findSystemAccount(db));
          return c.json({
            licence_id: licence.licence_id,
            licensee: licence.licensee,
            valid_from: licence.valid_from,
            valid_to: licence.valid_to,
            pools: LICENSED_APPLICATIONS.flatMap((app) =>
              LICENCE_TYPES[app].map((type) => ({
                app_code: app,
                feature: type.id,
                limit: systemPoolLimit(payload, app, type.id),
                allocated: given.get(typeKey(app, type.id)) ?? 0,
              })),
            ),
          });
        },
      )
      .get(
        '/license/usage/:app',
        describeOperation({
          tag: 'Licence',
          summary:
            "The system-wide use of an application: each type's pool, what the system allocated of it and what remains; system scope with the application's view or manage licence permission.",
          success: { status: 200, description: 'System use', schema: licenceUsageSchema },
          failures: [400, 403],
        }),
        authenticated,
        validateParams(appParamsSchema),
        async (c) => {
          const { app } = c.req.valid('param');
          assertSystemScope(c.var.principal, [viewLicencePermission(app), manageLicencePermission(app)]);
          const system = await findSystemAccount(db);
          return c.json(usageOf(await licenceState(db, system, app, deps.now(), false)));
        },
      )
  );
}
