import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SYSTEM_ACCOUNT_NAME } from '../../contract/constants.ts';
import { DEFAULT_PLATFORM_LOCALE } from '../../contract/locales.ts';
import { BUILT_IN_ROLES, type BuiltInRoleCode } from '../../contract/permissions.ts';
import type { Database } from '../db/schema.ts';
import { utcDate } from '../licence/verify.ts';

/** The built-in roles belong to the account-management application. */
const BUILT_IN_ROLE_APPLICATION = 'account_manager';

/** The id of the System Account, created on first use; the partial unique index keeps it single. */
export async function ensureSystemAccount(db: Kysely<Database>, now: Date): Promise<string> {
  await db
    .insertInto('accounts')
    .values({
      id: randomUUID(),
      name: SYSTEM_ACCOUNT_NAME,
      display_name: SYSTEM_ACCOUNT_NAME,
      friendly_identifier: 'system',
      type: 'system',
      partner_account_id: null,
      system_account: true,
      locale: DEFAULT_PLATFORM_LOCALE,
      service_from: utcDate(now),
      service_to: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.column('system_account').where('system_account', '=', true).doNothing(),
    )
    .execute();
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('system_account', '=', true)
    .executeTakeFirstOrThrow();
  return account.id;
}

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
