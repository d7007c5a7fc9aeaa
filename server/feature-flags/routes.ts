import { Hono } from 'hono';
import {
  FEATURE_FLAGS,
  type FeatureFlagState,
  featureFlagListSchema,
  featureFlagParamsSchema,
  featureFlagSchema,
  featureFlagUpdateSchema,
} from '../../contract/feature-flags.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, updateDetails } from '../audit/change.ts';
import { requireSystemScope } from '../authorization/permissions.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { validateJson, validateParams } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { readFeatureFlags, saveFeatureFlag } from './store.ts';

/** Platform feature flags (/account/ui-api/v1/feature-flag), described in docs/api.md. */
export function featureFlagRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);

  app.get(
    '/feature-flag/features',
    describeOperation({
      tag: 'Feature flags',
      summary: 'Every platform feature flag and whether it is on.',
      success: { status: 200, description: 'Feature flags', schema: featureFlagListSchema },
      failures: [],
    }),
    authenticated,
    async (c) => {
      const flags = await readFeatureFlags(db);
      const items: FeatureFlagState[] = FEATURE_FLAGS.map((name) => ({ name, enabled: flags[name] }));
      return c.json({ items, total: items.length });
    },
  );

  // After feature-flag/features, which this pattern would match too.
  app.get(
    '/feature-flag/:name',
    describeOperation({
      tag: 'Feature flags',
      summary: 'One feature flag.',
      success: { status: 200, description: 'Feature flag', schema: featureFlagSchema },
      failures: [400],
    }),
    authenticated,
    validateParams(featureFlagParamsSchema),
    async (c) => {
      const { name } = c.req.valid('param');
      const flags = await readFeatureFlags(db);
      const state: FeatureFlagState = { name, enabled: flags[name] };
      return c.json(state);
    },
  );

  app.put(
    '/feature-flag/:name',
    describeOperation({
      tag: 'Feature flags',
      summary: 'Turns a feature flag on or off (system scope, manage system settings).',
      success: { status: 204, description: 'Feature flag changed' },
      failures: [400, 403, 415],
    }),
    authenticated,
    requireSystemScope('MANAGE_SYSTEM_SETTINGS'),
    validateParams(featureFlagParamsSchema),
    validateJson(featureFlagUpdateSchema),
    async (c) => {
      const { name } = c.req.valid('param');
      const { enabled } = c.req.valid('json');
      await db.transaction().execute(async (trx) => {
        const before = await readFeatureFlags(trx);
        if (before[name] === enabled) return;
        await saveFeatureFlag(trx, name, enabled, deps.now());
        // A platform setting: recorded against the System Account, the caller's primary account.
        const field = `feature_flags.${name}`;
        await auditChange(trx, c, deps, {
          action: 'UPDATE',
          resourceType: 'ACCOUNT',
          resourceId: c.var.principal.primaryAccountId,
          accountId: c.var.principal.primaryAccountId,
          details: updateDetails({ [field]: before[name] }, { [field]: enabled }, [field]),
        });
      });
      return c.body(null, 204);
    },
  );

  return app;
}
