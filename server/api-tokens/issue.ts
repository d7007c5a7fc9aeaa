import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { ApiTokenCreated } from '../../contract/schemas/api-tokens.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange } from '../audit/change.ts';
import { utcDate } from '../dates.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { TokenOwner } from './access.ts';
import { apiTokenNameTaken, countActiveApiTokens, insertApiToken } from './repository.ts';
import { assertBelowLimit, assertEndDate, assertWithinOwnerEndDate, nameInUse } from './rules.ts';

/**
 * Makes a token for `owner` once the caller may (checked by the caller), inside `trx`, which holds
 * the owner locked so two creations at once cannot both pass the limit or take one name; records
 * CREATE APIKEY. POST user/{id}/api-tokens, POST service-user/{id}/api-tokens and POST service-user
 * (its first token) make tokens here.
 */
export async function issueApiToken(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: AppDeps,
  owner: TokenOwner & { primary_account_id: string },
  fields: { name: string; endDate: string | null },
  now: Date,
): Promise<ApiTokenCreated> {
  const { name, endDate } = fields;
  assertEndDate(endDate, utcDate(now));
  assertWithinOwnerEndDate(owner, endDate);
  assertBelowLimit(await countActiveApiTokens(trx, owner.id, now));
  if (await apiTokenNameTaken(trx, owner.id, name)) throw nameInUse();
  const token = await insertApiToken(
    trx,
    { userId: owner.id, name, endDate, createdBy: c.var.principal.userId },
    now,
  );
  await auditChange(trx, c, deps, {
    action: 'CREATE',
    resourceType: 'APIKEY',
    resourceId: token.id,
    accountId: owner.primary_account_id,
    details: { name, user_id: owner.id, end_date: endDate },
  });
  return token;
}
