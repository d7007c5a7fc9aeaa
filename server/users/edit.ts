import type { Kysely, Transaction } from 'kysely';
import type { AuditUpdateDetails } from '../../contract/audit.ts';
import type { UserUpdate } from '../../contract/schemas/users.ts';
import { changesNothing, updateDetails } from '../audit/change.ts';
import { assertUserWithinYours, effectivePermissions } from '../authorization/grants.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { reachablePerson } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { Access } from '../resources/versioned-resource.ts';
import { assertUserNameFree } from './user-name-probes.ts';

/** A user as its edit (PUT user/{id}) needs it: the fields it replaces and what G4 compares. */
export interface EditableUser {
  id: string;
  version: number;
  access_scope: Principal['accessScope'];
  primary_account_id: string;
  first_name: string;
  last_name: string;
  user_name: string;
  email: string;
  phone: string | null;
  locale: string;
  aliases: Record<string, string>;
  /** What the user holds, for G4. */
  permissions: readonly string[];
}

/** The person `id` within the caller's reach, with what its edit needs; locked with `lock`. */
export async function findEditableUser(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<EditableUser | undefined> {
  const row = await reachablePerson(db, principal, id)
    .select((eb) => [
      'users.id',
      'users.version',
      'users.access_scope',
      'users.primary_account_id',
      'users.first_name',
      'users.last_name',
      'users.user_name',
      'users.email',
      'users.phone',
      'users.locale',
      'users.aliases',
      effectivePermissions(eb.ref('users.id')).as('permissions'),
    ])
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && { ...row, access_scope: accessScopeOf(row.access_scope) };
}

/**
 * Who may edit a user's fields (decision 018 §3.2, §3.3): a person acting on itself needs no
 * permission (the own profile); anyone else needs to change users of the target's scope (G2).
 */
export function assertMayEditUser(principal: Principal, user: EditableUser, access: Access): void {
  if (user.id === principal.userId) return;
  assertUserAccess(principal, user.access_scope, access);
}

/** G4 for another user: nobody edits (and so could take over) a user stronger than themselves. */
export function assertEditableByYou(principal: Principal, user: EditableUser): void {
  if (user.id === principal.userId) return;
  assertUserWithinYours(principal, user.permissions);
}

/** Fields of a user whose old and new values the trail keeps; e-mail, phone and aliases are withheld. */
const DISCLOSED_USER_FIELDS = ['first_name', 'last_name', 'user_name', 'locale'];

/** Aliases as one comparable value: the same identifiers and values in any order compare equal. */
function aliasesKey(aliases: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(aliases).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Applies `update` to `user` inside the edit's transaction, after the version was compared (decision
 * 018 §3.4 steps 6 and 7): 400 for aliases on a user who is not of system scope, 409 `inUse` for a user
 * name someone else has, then the write. A changed e-mail address is no longer verified: the user's
 * open links die (they were sent to the old address), a verification mail goes to the new address
 * and a notice to the old one, all in this transaction. Answers the trail's details, or null when
 * nothing changes (then nothing is written, recorded or sent).
 */
export async function applyUserUpdate(
  trx: Kysely<Database>,
  principal: Principal,
  user: EditableUser,
  update: UserUpdate,
  now: Date,
): Promise<AuditUpdateDetails | null> {
  const aliases = update.aliases ?? user.aliases;
  if (user.access_scope !== 'system' && Object.keys(aliases).length > 0) {
    throw new ApiError(400, 'aliases: only users of the system scope have aliases', {
      field: 'aliases',
      code: 'invalidValue',
    });
  }
  const phone = update.phone === '' ? null : update.phone;
  const before = {
    first_name: user.first_name,
    last_name: user.last_name,
    user_name: user.user_name,
    email: user.email,
    phone: user.phone,
    locale: user.locale,
    aliases: aliasesKey(user.aliases),
  };
  const after = {
    first_name: update.first_name,
    last_name: update.last_name,
    user_name: update.user_name,
    email: update.email,
    phone,
    locale: update.locale,
    aliases: aliasesKey(aliases),
  };
  const details = updateDetails(before, after, DISCLOSED_USER_FIELDS);
  if (changesNothing(details)) return null;

  const userNameKey = update.user_name.toLowerCase();
  if (userNameKey !== user.user_name.toLowerCase()) {
    await assertUserNameFree(trx, principal, update.user_name, 'user_name', 'user_name: already in use');
  }
  // Only a new address needs proving; the same one written in other capitals is the same mailbox.
  const emailChanged = update.email.toLowerCase() !== user.email.toLowerCase();
  await trx
    .updateTable('users')
    .set((eb) => ({
      first_name: update.first_name,
      last_name: update.last_name,
      user_name: update.user_name,
      user_name_key: userNameKey,
      email: update.email,
      phone,
      locale: update.locale,
      aliases: JSON.stringify(aliases),
      ...(emailChanged ? { email_verified_at: null } : {}),
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', user.id)
    .execute();
  if (emailChanged) {
    await trx
      .updateTable('user_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const mailTrx = asTransaction(trx);
    const requestedBy = user.id === principal.userId ? null : principal.userId;
    await enqueueMail(mailTrx, { kind: 'verify_email', userId: user.id, to: update.email, requestedBy, now });
    await enqueueMail(mailTrx, { kind: 'email_changed', userId: user.id, to: user.email, requestedBy, now });
  }
  return details;
}

/** The change's transaction, as the mail outbox asks for one, so a mail never leaves without its change. */
function asTransaction(db: Kysely<Database>): Transaction<Database> {
  if (!db.isTransaction) throw new Error('Mail is queued only inside the transaction of its change.');
  return db as Transaction<Database>;
}
