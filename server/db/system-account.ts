import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SYSTEM_ACCOUNT_NAME } from '../../contract/constants.ts';
import { DEFAULT_PLATFORM_LOCALE } from '../../contract/locales.ts';
import { utcDate } from '../dates.ts';
import type { Database } from './schema.ts';

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
