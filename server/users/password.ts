import type { Context } from 'hono';
import type { PasswordChange } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordAuditEvent } from '../audit/record.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import { sessionIdOf } from '../identity/authenticate.ts';
import { hashPassword, inPasswordHashingTurn, verifyPassword } from '../identity/passwords.ts';
import { revokeUserSessions } from '../identity/sessions.ts';
import { enqueueMail } from '../mail/outbox.ts';
import {
  forgetWrongPasswords,
  passwordChangeKey,
  passwordCheckWait,
  recordWrongPassword,
} from './password-checks.ts';

/**
 * PUT user/{id}/password (decision 035 §1, decision 039 §7): the caller's own password, in a signed-in session
 * (403 `sessionRequired` for an API token, 403 `ownUserOnly` for anyone else in reach, 404 out of
 * reach). The current password is checked under the user's own password-change budget (decision
 * 031), so a stolen session cannot guess it freely, and nobody else's wrong sign-ins from the same
 * address keep the user from changing it, nor these from signing in.
 * The new hash, the end of every other session of the user, the notice mail and the UPDATE_PASSWORD
 * event commit together; the calling session stays signed in.
 */
export async function changeOwnPassword(
  deps: AppDeps,
  c: Context<AppEnv>,
  userId: string,
  { current_password: currentPassword, password }: PasswordChange,
): Promise<void> {
  const { db } = deps;
  const principal = c.var.principal;
  const sessionId = sessionIdOf(principal);
  const target = await findReachableUser(db, principal, userId, false);
  if (!target) throw new ApiError(404, USER_NOT_FOUND);
  if (target.id !== principal.userId) {
    throw new ApiError(403, 'A password is changed by its own user only.', { code: 'ownUserOnly' });
  }

  const ipAddress = clientAddress(c, deps.config);
  const budget = passwordChangeKey(target.id);
  const wait = await passwordCheckWait(db, deps.now(), budget);
  if (wait > 0) {
    c.header('Retry-After', String(wait));
    throw new ApiError(429, 'Too many failed attempts. Try again later.');
  }

  // The signed-in user is a better name for the hashing turn than the address it shares with others.
  const hashingClient = `user:${principal.userId}`;
  const stored = await db
    .selectFrom('users')
    .select(['password_hash', 'email'])
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow();
  const matches = await inPasswordHashingTurn(hashingClient, () =>
    verifyPassword(stored.password_hash, currentPassword),
  );
  if (!matches) {
    await recordWrongPassword(db, deps.now(), budget);
    throw invalidField('current_password', 'wrongPassword');
  }
  if (password === currentPassword) throw invalidField('password', 'samePassword');
  const passwordHash = await inPasswordHashingTurn(hashingClient, () => hashPassword(password));

  await db.transaction().execute(async (trx) => {
    const now = deps.now();
    await forgetWrongPasswords(trx, budget);
    await trx
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        password_changed_at: now,
        updated_at: now,
        // The record shows when the password changed: its version (ETag) moves on.
        version: eb('version', '+', 1),
      }))
      .where('id', '=', target.id)
      .execute();
    const ended = await revokeUserSessions(trx, target.id, 'password_changed', now, { keep: sessionId });
    await enqueueMail(trx, {
      kind: 'password_changed',
      userId: target.id,
      to: stored.email,
      requestedBy: null,
      now,
    });
    await recordAuditEvent(trx, {
      action: 'UPDATE_PASSWORD',
      status: 'success',
      resourceType: 'USER',
      resourceId: target.id,
      accountId: target.primary_account_id,
      actorId: principal.userId,
      actorName: principal.userName,
      ipAddress,
      userAgent: c.req.header('User-Agent') ?? null,
      details: { sessions_ended: ended },
      occurredAt: now,
    });
  });
}
