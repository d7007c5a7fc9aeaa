import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { STORAGE_SECRET_BYTES } from '../../contract/schemas/identity.ts';
import type { Database } from '../db/schema.ts';

/**
 * The user's storage secret, base64url without padding, made on first request. The console wraps the
 * keys of its offline data with it, so that data is readable only after a sign-in of its own user.
 * Concurrent first requests (in any process) insert at most one row and all answer the one stored.
 */
export async function storageSecretOf(db: Kysely<Database>, userId: string): Promise<string> {
  await db
    .insertInto('user_storage_secrets')
    .values({ user_id: userId, secret: randomBytes(STORAGE_SECRET_BYTES) })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('user_storage_secrets')
    .select('secret')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.secret).toString('base64url');
}
