import { Hono } from 'hono';
import type * as v from 'valibot';
import { ACCOUNT_FEATURES } from '../../contract/licences.ts';
import {
  type AccountFeature,
  type AccountFeatureUpdate,
  accountFeatureListSchema,
  accountFeatureUpdateSchema,
} from '../../contract/schemas/licences.ts';
import { tenantIdParamsSchema } from '../../contract/schemas/tenants.ts';
import type { AppDeps } from '../app-deps.ts';
import { updateDetails } from '../audit/change.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { validateJson, validateParams } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { type ChangeSpec, type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import { assertFeaturePermission, mayEditFeatures } from './access.ts';
import { type FeatureSetRow, findFeatureSet, writeFeatures } from './repository.ts';
import { assertFeaturesEditable, featuresAfter } from './rules.ts';

const FEATURES = '/features/account/:id';

/** The features list as GET features/account/{id} answers it (K-02, K-03). */
function featureList(
  principal: Principal,
  account: FeatureSetRow,
): v.InferOutput<typeof accountFeatureListSchema> {
  const items: AccountFeature[] = ACCOUNT_FEATURES.map((entry, index) => {
    const state = account.features[index];
    return {
      featureId: entry.id,
      appCode: entry.app,
      enabled: state?.enabled ?? entry.defaultFeature,
      defaultFeature: entry.defaultFeature,
      displayOrder: entry.displayOrder,
      endDate: state?.end_date ?? null,
    };
  });
  return { items, canEdit: mayEditFeatures(principal, account), version: account.version };
}

/**
 * The features of an account, addressed through the account: one out of the caller's reach is not
 * found. The trail records a change on the account (resource type ACCOUNT).
 */
const featureSetKind: ResourceKind<{ id: string }, FeatureSetRow> = {
  label: 'Account features',
  resourceType: 'ACCOUNT',
  find: async (db, principal, { id }, lock) => {
    const row = await findFeatureSet(db, principal, id, lock);
    return row && { row, accountId: row.id };
  },
  authorize: (principal, _found, access) => assertFeaturePermission(principal, access),
  represent: async (_db, principal, { row }) => featureList(principal, row),
};

/** `{ trial_account: { enabled, end_date } }` → `{ 'trial_account.enabled': …, … }`: the trail's dot paths. */
function flattened(features: readonly { feature_id: string; enabled: boolean; end_date: string | null }[]) {
  return Object.fromEntries(
    features.flatMap((feature) => [
      [`${feature.feature_id}.enabled`, feature.enabled],
      [`${feature.feature_id}.end_date`, feature.end_date],
    ]),
  );
}

/**
 * PUT features/account/{id} (K-04): the rules re-checked here on the features the account would have
 * (the console's checks are a convenience), the changed features written, one UPDATE event keeping
 * every changed value (none is personal). A list that changes nothing writes nothing.
 */
function changeFeatures(principal: Principal, update: AccountFeatureUpdate): ChangeSpec<FeatureSetRow> {
  return {
    // Queued offline like an account edit: a replay over a change it did not see is a 412.
    precondition: 'required',
    permit: ({ row }) => assertFeaturesEditable(principal, row),
    apply: async (trx, { row }, now) => {
      const next = featuresAfter(row, update);
      const changed = next.filter((feature, index) => {
        const before = row.features[index];
        return before?.enabled !== feature.enabled || before.end_date !== feature.end_date;
      });
      if (changed.length === 0) return null;
      await writeFeatures(trx, row.id, changed, now);
      const before = flattened(row.features);
      return { action: 'UPDATE', details: updateDetails(before, flattened(next), Object.keys(before)) };
    },
  };
}

/** Features per account (/account/ui-api/v1), described in docs/api.md. */
export function accountFeatureRoutes(deps: AppDeps): Hono<AppEnv> {
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const features = versionedResource(deps, featureSetKind);
  const params = validateParams(tenantIdParamsSchema);
  return new Hono<AppEnv>()
    .get(
      FEATURES,
      describeOperation({
        tag: 'Accounts',
        summary:
          'Every feature of the catalogue for an account, its stored value or its default, whether the caller may change them, and their version (view account).',
        success: {
          status: 200,
          description: 'Account features',
          schema: accountFeatureListSchema,
          etag: true,
        },
        failures: [400, 403, 404],
      }),
      authenticated,
      params,
      (c) => features.read(c, c.req.valid('param')),
    )
    .put(
      FEATURES,
      describeOperation({
        tag: 'Accounts',
        summary:
          "Sets an account's features (manage account; not a partner's own primary account): trial and key-locker exclude each other, trial needs an end date, no end date after the account's, public issuance stays on while key-locker is on. If-Match is required.",
        success: { status: 204, description: 'Features set' },
        failures: [400, 403, 404, 413, 415],
        ifMatch: { required: true, current: accountFeatureListSchema },
      }),
      authenticated,
      params,
      validateJson(accountFeatureUpdateSchema),
      (c) => features.change(c, c.req.valid('param'), changeFeatures(c.var.principal, c.req.valid('json'))),
    );
}
