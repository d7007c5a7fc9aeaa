import type { Context } from 'hono';
import type { Kysely, Updateable } from 'kysely';
import type { AuditUpdateDetails } from '../../contract/audit.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange } from '../audit/change.ts';
import type { Database, UsersTable } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';

/**
 * Writes a change of one user: its `fields`, its version moved on (its ETag, which also covers what
 * the record shows from other tables, such as its roles) and one UPDATE USER event in its primary
 * account's trail, in the caller's transaction.
 */
export async function recordUserChange(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: Pick<AppDeps, 'config' | 'now'>,
  user: { id: string; primary_account_id: string },
  fields: Updateable<UsersTable>,
  details: AuditUpdateDetails,
): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ ...fields, updated_at: deps.now(), version: eb('version', '+', 1) }))
    .where('id', '=', user.id)
    .execute();
  await auditChange(trx, c, deps, {
    action: 'UPDATE',
    resourceType: 'USER',
    resourceId: user.id,
    accountId: user.primary_account_id,
    details,
  });
}
