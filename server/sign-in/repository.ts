import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The person signing in by user name, with what the password check and the session need. A service
 * user never signs in (decision 036): its name is answered like an unknown one.
 */
export function findPersonSigningIn(db: Kysely<Database>, userName: string) {
  return db
    .selectFrom('users')
    .select(['id', 'user_name', 'password_hash', 'active', 'access_scope', 'primary_account_id'])
    .where('user_name_key', '=', userName.toLowerCase())
    .where('kind', '=', 'person')
    .executeTakeFirst();
}

/** Not a change of the user: the version stays, so an administrator's edit is not refused for it. */
export async function recordSignInTime(db: Kysely<Database>, userId: string, at: Date): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}
