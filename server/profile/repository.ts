import type { Kysely } from 'kysely';
import type { Profile } from '../../contract/schemas/profile.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

export function findProfileUser(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'user_name',
      'first_name',
      'last_name',
      'email',
      'locale',
      'date_format',
      'phone',
      'aliases',
      'saml_username',
      'oidc_username',
      'email_verified_at',
      'default_application',
      'version',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/**
 * The accounts a user works in, primary first: a system user's is the System Account; anyone else's
 * are the primary account and the accounts they were added to.
 */
export async function userAccounts(db: Kysely<Database>, principal: Principal): Promise<Profile['accounts']> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'display_name', 'active', 'service_to'])
    .where((eb) =>
      principal.accessScope === 'system'
        ? eb('system_account', '=', true)
        : eb.or([
            eb('id', '=', principal.primaryAccountId),
            eb(
              'id',
              'in',
              eb.selectFrom('user_accounts').select('account_id').where('user_id', '=', principal.userId),
            ),
          ]),
    )
    .orderBy((eb) => eb.case().when('id', '=', principal.primaryAccountId).then(0).else(1).end())
    .orderBy('display_name')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    display_name: row.display_name,
    active: row.active,
    service_period: { to: row.service_to },
  }));
}
