import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BUILT_IN_ROLES, type BuiltInRoleCode } from '../../contract/permissions.ts';
import type { Database } from '../db/schema.ts';

/** The built-in roles belong to the account-management application. */
const BUILT_IN_ROLE_APPLICATION = 'account_manager';

/** Ids of the built-in roles by code, creating the ones that are missing. */
export async function ensureBuiltInRoles(
  db: Kysely<Database>,
  now: Date,
): Promise<Record<BuiltInRoleCode, string>> {
  await db
    .insertInto('roles')
    .values(
      Object.entries(BUILT_IN_ROLES).map(([code, role]) => ({
        id: randomUUID(),
        code,
        name: role.name,
        app_code: BUILT_IN_ROLE_APPLICATION,
        account_id: null,
        permissions: JSON.stringify(role.permissions),
        created_at: now,
      })),
    )
    .onConflict((conflict) => conflict.column('code').where('account_id', 'is', null).doNothing())
    .execute();
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'code'])
    .where('account_id', 'is', null)
    .where('code', 'in', Object.keys(BUILT_IN_ROLES))
    .execute();
  const ids: Partial<Record<BuiltInRoleCode, string>> = {};
  for (const row of rows) {
    if (row.code !== null && row.code in BUILT_IN_ROLES) ids[row.code as BuiltInRoleCode] = row.id;
  }
  const missing = Object.keys(BUILT_IN_ROLES).filter((code) => !(code in ids));
  if (missing.length > 0) throw new Error(`Built-in roles missing after seeding: ${missing.join(', ')}.`);
  return ids as Record<BuiltInRoleCode, string>;
}
