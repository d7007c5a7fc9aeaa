import * as v from 'valibot';

/**
 * Platform feature flags (account administration §2, §7). The spec names their effects but not their
 * names; ours are in docs/decisions/012-accounts-and-organizations.md.
 * - `partner_accounts`: partner accounts exist; the accounts list shows type and partner columns and
 *   system scope creates standard or partner accounts from a menu.
 * - `partner_scope`: the account details header shows the account type.
 * - `federated_info`: the accounts list shows federation status and federated account id.
 * - `roles`: custom roles may be defined and newly assigned, and Access shows User roles (decision
 *   018 §4.2); off, existing assignments keep granting what they grant.
 */
export const FEATURE_FLAGS = ['partner_accounts', 'partner_scope', 'federated_info', 'roles'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** What a platform without stored flag settings runs with. */
export const DEFAULT_FEATURE_FLAGS: Readonly<Record<FeatureFlag, boolean>> = {
  partner_accounts: true,
  partner_scope: true,
  federated_info: true,
  roles: true,
};

export const featureFlagSchema = v.object({
  name: v.picklist(FEATURE_FLAGS),
  enabled: v.boolean(),
});
export type FeatureFlagState = v.InferOutput<typeof featureFlagSchema>;

/** GET feature-flag/features */
export const featureFlagListSchema = v.object({
  items: v.array(featureFlagSchema),
  total: v.number(),
});

export const featureFlagParamsSchema = v.object({
  name: v.picklist(FEATURE_FLAGS, 'invalidValue'),
});

/** PUT feature-flag/{name} */
export const featureFlagUpdateSchema = v.object({
  enabled: v.boolean('invalidType'),
});
