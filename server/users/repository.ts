import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_PLATFORM_LOCALE } from '../../contract/locales.ts';
import type { AccessScope } from '../../contract/permissions.ts';
import type { Database } from '../db/schema.ts';

export interface UserToCreate {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  accessScope: AccessScope;
  primaryAccountId: string;
  /** argon2id PHC string from `hashPassword`, or null for a user without a password. */
  passwordHash: string | null;
  roleIds: readonly string[];
  locale?: string;
  now: Date;
}

/** Inserts a user, its membership of its primary account and its roles; answers the new id. */
export async function insertUser(db: Kysely<Database>, user: UserToCreate): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      user_name: user.userName,
      user_name_key: user.userName.toLowerCase(),
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      phone: null,
      locale: user.locale ?? DEFAULT_PLATFORM_LOCALE,
      date_format: null,
      access_scope: user.accessScope,
      primary_account_id: user.primaryAccountId,
      password_hash: user.passwordHash,
      saml_username: null,
      oidc_username: null,
      created_at: user.now,
      updated_at: user.now,
    })
    .execute();
  await db.insertInto('user_accounts').values({ user_id: id, account_id: user.primaryAccountId }).execute();
  if (user.roleIds.length > 0) {
    await db
      .insertInto('user_roles')
      .values(user.roleIds.map((roleId) => ({ user_id: id, role_id: roleId })))
      .execute();
  }
  return id;
}

/** Whether a user of that name exists; names compare without case, as sign-in does. */
export async function userNameTaken(trx: Kysely<Database>, userName: string): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('user_name_key', '=', userName.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}
