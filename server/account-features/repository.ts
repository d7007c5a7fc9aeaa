import type { Kysely } from 'kysely';
import { ACCOUNT_FEATURES, type AccountFeatureId, type FeatureState } from '../../contract/licences.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

/** The features of one account as the routes address them: every catalogue feature, and their version. */
export interface FeatureSetRow {
  /** The account's id. */
  id: string;
  version: number;
  partner_account_id: string | null;
  /** The account's service end date (`YYYY-MM-DD`), which no feature may outlast (K-11). */
  service_to: string | null;
  /** In catalogue order: the stored value of each feature, else its default. */
  features: FeatureState[];
}

type StoredFeature = { feature_id: string; enabled: boolean; end_date: string | null };

/** Every catalogue feature, stored or by default; a stored feature the catalogue no longer has is left out. */
function withDefaults(stored: readonly StoredFeature[]): FeatureState[] {
  const byId = new Map(stored.map((row) => [row.feature_id, row]));
  return ACCOUNT_FEATURES.map((feature) => {
    const row = byId.get(feature.id);
    return {
      feature_id: feature.id,
      enabled: row?.enabled ?? feature.defaultFeature,
      end_date: row?.end_date ?? null,
    };
  });
}

/**
 * The features of an account the caller sees, or undefined. With `lock`, the account is share-locked
 * (its end date and partner hold) and the features' version row, made if it was missing, is locked for
 * the change: two changes of one account's features are serialised by it.
 */
export async function findFeatureSet(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
  lock: boolean,
): Promise<FeatureSetRow | undefined> {
  let accountQuery = db
    .selectFrom('accounts')
    .select(['id', 'partner_account_id', 'service_to'])
    .where('accounts.id', '=', accountId)
    .where(visibleTo(principal));
  if (lock) accountQuery = accountQuery.forShare();
  const account = await accountQuery.executeTakeFirst();
  if (!account) return undefined;
  if (lock) {
    await db
      .insertInto('account_feature_versions')
      .values({ account_id: accountId })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
  }
  let versionQuery = db
    .selectFrom('account_feature_versions')
    .select('version')
    .where('account_id', '=', accountId);
  if (lock) versionQuery = versionQuery.forUpdate();
  const versionRow = await versionQuery.executeTakeFirst();
  const stored = await db
    .selectFrom('account_features')
    .select(['feature_id', 'enabled', 'end_date'])
    .where('account_id', '=', accountId)
    .execute();
  return { ...account, version: versionRow?.version ?? 1, features: withDefaults(stored) };
}

/** Whether a feature is on for an account: its stored value, else the catalogue's default. */
export async function featureEnabled(
  db: Kysely<Database>,
  accountId: string,
  featureId: AccountFeatureId,
): Promise<boolean> {
  const row = await db
    .selectFrom('account_features')
    .select('enabled')
    .where('account_id', '=', accountId)
    .where('feature_id', '=', featureId)
    .executeTakeFirst();
  return (
    row?.enabled ?? ACCOUNT_FEATURES.some((feature) => feature.id === featureId && feature.defaultFeature)
  );
}

/** Stores the changed features of an account and moves its features' version on (its row exists, locked). */
export async function writeFeatures(
  trx: Kysely<Database>,
  accountId: string,
  changed: readonly FeatureState[],
  now: Date,
): Promise<void> {
  await trx
    .insertInto('account_features')
    .values(changed.map((feature) => ({ account_id: accountId, ...feature, updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['account_id', 'feature_id']).doUpdateSet((eb) => ({
        enabled: eb.ref('excluded.enabled'),
        end_date: eb.ref('excluded.end_date'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  await trx
    .updateTable('account_feature_versions')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('account_id', '=', accountId)
    .execute();
}
