import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import {
  linkHolderRequestSchema,
  linkHolderSchema,
  passwordResetSchema,
  userIdParamsSchema,
  userVerifySchema,
  type VerifyLinkHolder,
} from '../../contract/schemas/users.ts';
import { passwordSchema, type ValidationCode } from '../../contract/validation.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy, updateDetails } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { errorResponse } from '../http/errors.ts';
import { invalidField, validateJson, validateParams } from '../http/validate.ts';
import { hashOpaqueToken } from '../identity/opaque-tokens.ts';
import { hashPassword, inPasswordHashingTurn, verifyPassword } from '../identity/passwords.ts';
import { revokeUserSessions } from '../identity/sessions.ts';
import type { TokenPurpose } from '../mail/kinds.ts';
import { enqueueMail } from '../mail/outbox.ts';
import {
  forgetWrongPasswords,
  linkPasswordKey,
  passwordCheckWait,
  recordWrongPassword,
} from './password-checks.ts';

/**
 * The public routes a mailed link opens (decision 035 §1): no bearer token, the one-time code is
 * the credential. Every bad code (unknown, of another user, spent, superseded, expired, sent to an
 * address the user no longer has, of a disabled user) is the same 400 `linkExpired`, and a password
 * is hashed only once the code is known good, so a flood of bad codes costs no argon2.
 */

interface LinkHolder {
  token_hash: string;
  purpose: string;
  id: string;
  user_name: string;
  user_name_key: string;
  email: string;
  primary_account_id: string;
  password_hash: string | null;
  email_verified_at: Date | null;
}

/** The user a live code of `purposes` belongs to, when it is the user of the path. */
function findLinkHolder(
  db: Kysely<Database>,
  userId: string,
  code: string,
  purposes: readonly TokenPurpose[],
  now: Date,
  lock: boolean,
): Promise<LinkHolder | undefined> {
  return db
    .selectFrom('user_tokens')
    .innerJoin('users', 'users.id', 'user_tokens.user_id')
    .select([
      'user_tokens.token_hash',
      'user_tokens.purpose',
      'users.id',
      'users.user_name',
      'users.user_name_key',
      'users.email',
      'users.primary_account_id',
      'users.password_hash',
      'users.email_verified_at',
    ])
    .where('user_tokens.token_hash', '=', hashOpaqueToken(code))
    .where('user_tokens.user_id', '=', userId)
    .where('user_tokens.purpose', 'in', purposes)
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.revoked_at', 'is', null)
    .where('user_tokens.expires_at', '>', now)
    .whereRef('user_tokens.email', '=', 'users.email')
    .where('users.active', '=', true)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
}

/**
 * Spends the code inside the write's transaction, checking it again under its row lock: a code used
 * twice at once is good for one of the two only.
 */
async function spendCode(
  trx: Kysely<Database>,
  holder: LinkHolder,
  code: string,
  field: string,
  now: Date,
): Promise<LinkHolder> {
  const current = await findLinkHolder(trx, holder.id, code, [holder.purpose as TokenPurpose], now, true);
  if (current === undefined) throw invalidField(field, 'linkExpired');
  await trx
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', current.token_hash)
    .execute();
  return current;
}

/** The user of a link, acting on itself from the address the link was opened at. */
const actorOf = (holder: LinkHolder, c: Context<AppEnv>, config: AppDeps['config']): AuditActor => ({
  id: holder.id,
  name: holder.user_name,
  address: clientAddress(c, config),
  userAgent: c.req.header('User-Agent') ?? null,
});

export function userLinkRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db, config } = deps;
  const userParams = validateParams(userIdParamsSchema);

  const hashingClient = (c: Context<AppEnv>) => `ip:${clientAddress(c, config) ?? 'unknown'}`;

  // The page of a link shows whose it is; the code is the proof, as for the verification itself, and
  // a wrong one answers as a spent one. Nothing is spent or written.
  app.post(
    '/user/:id/verify/holder',
    describeOperation({
      tag: 'Users',
      summary:
        'Public: the user name of an invitation or verification link, for its page to show; every bad code is 400 linkExpired. Spends nothing.',
      success: { status: 200, description: 'The link holder', schema: linkHolderSchema },
      failures: [400, 413, 415],
    }),
    userParams,
    validateJson(linkHolderRequestSchema),
    async (c) => {
      const { id } = c.req.valid('param');
      const { verification_code: code } = c.req.valid('json');
      c.header('Cache-Control', 'no-store');
      const holder = await findLinkHolder(db, id, code, ['invitation', 'verify_email'], deps.now(), false);
      if (holder === undefined) throw invalidField('verification_code', 'linkExpired');
      return c.json({ user_name: holder.user_name } satisfies VerifyLinkHolder);
    },
  );

  app.post(
    '/user/:id/verify',
    describeOperation({
      tag: 'Users',
      summary:
        'Public: the mailed code sets the first password (invitation) or, with the current password, verifies the address. Every bad code is 400 linkExpired; a wrong password is 400 wrongPassword and counts against the sign-in throttle (429).',
      success: { status: 204, description: 'Verified' },
      failures: [400, 413, 415, 429],
    }),
    userParams,
    validateJson(userVerifySchema),
    async (c) => {
      const { id } = c.req.valid('param');
      const { verification_code: code, login, password } = c.req.valid('json');
      const field = 'verification_code';
      const holder = await findLinkHolder(db, id, code, ['invitation', 'verify_email'], deps.now(), false);
      if (holder === undefined) throw invalidField(field, 'linkExpired');
      if (login.trim().toLowerCase() !== holder.user_name_key) throw invalidField('login', 'invalidLogin');

      if (holder.password_hash === null) {
        // An invitation: the password is chosen now, under the password rules.
        const checked = v.safeParse(passwordSchema, password);
        if (!checked.success) {
          throw invalidField('password', (checked.issues[0]?.message ?? 'invalidValue') as ValidationCode);
        }
        const passwordHash = await inPasswordHashingTurn(hashingClient(c), () => hashPassword(password));
        await db.transaction().execute(async (trx) => {
          const now = deps.now();
          const spent = await spendCode(trx, holder, code, field, now);
          await trx
            .updateTable('users')
            .set((eb) => ({
              password_hash: passwordHash,
              password_changed_at: now,
              email_verified_at: now,
              updated_at: now,
              version: eb('version', '+', 1),
            }))
            .where('id', '=', spent.id)
            .execute();
          const change = {
            resourceType: 'USER',
            resourceId: spent.id,
            accountId: spent.primary_account_id,
          } as const;
          await auditChangeBy(trx, actorOf(spent, c, deps.config), deps, {
            ...change,
            action: 'UPDATE',
            details: updateDetails({ email_verified: false }, { email_verified: true }, ['email_verified']),
          });
          await auditChangeBy(trx, actorOf(spent, c, deps.config), deps, {
            ...change,
            action: 'UPDATE_PASSWORD',
            details: {},
          });
          await enqueueMail(trx, {
            kind: 'password_changed',
            userId: spent.id,
            to: spent.email,
            requestedBy: null,
            now,
          });
        });
        deps.mail.nudge();
        return c.body(null, 204);
      }

      // An address change: the current password proves the person. A wrong one counts against the
      // link's own budget (decision 031), so whoever reads the mailbox cannot guess the password
      // through this door, and nobody else's wrong sign-ins keep the real user from confirming.
      const budget = linkPasswordKey(holder.token_hash);
      const wait = await passwordCheckWait(db, deps.now(), budget);
      if (wait > 0) {
        c.header('Retry-After', String(wait));
        return errorResponse(c, 429, 'Too many failed attempts. Try again later.');
      }
      const matches = await inPasswordHashingTurn(hashingClient(c), () =>
        verifyPassword(holder.password_hash, password),
      );
      if (!matches) {
        await recordWrongPassword(db, deps.now(), budget);
        throw invalidField('password', 'wrongPassword');
      }
      await db.transaction().execute(async (trx) => {
        const now = deps.now();
        const spent = await spendCode(trx, holder, code, field, now);
        await forgetWrongPasswords(trx, budget);
        if (spent.email_verified_at !== null) return;
        await trx
          .updateTable('users')
          .set((eb) => ({ email_verified_at: now, updated_at: now, version: eb('version', '+', 1) }))
          .where('id', '=', spent.id)
          .execute();
        await auditChangeBy(trx, actorOf(spent, c, deps.config), deps, {
          action: 'UPDATE',
          resourceType: 'USER',
          resourceId: spent.id,
          accountId: spent.primary_account_id,
          details: updateDetails({ email_verified: false }, { email_verified: true }, ['email_verified']),
        });
      });
      return c.body(null, 204);
    },
  );

  app.post(
    '/user/:id/reset-password',
    describeOperation({
      tag: 'Users',
      summary:
        'Public: the mailed code sets a new password, ends every session of the user and marks the address verified. Every bad code is 400 linkExpired.',
      success: { status: 204, description: 'Password set' },
      failures: [400, 413, 415],
    }),
    userParams,
    validateJson(passwordResetSchema),
    async (c) => {
      const { id } = c.req.valid('param');
      const { reset_code: code, password } = c.req.valid('json');
      const field = 'reset_code';
      const holder = await findLinkHolder(db, id, code, ['reset_password'], deps.now(), false);
      if (holder === undefined) throw invalidField(field, 'linkExpired');
      const passwordHash = await inPasswordHashingTurn(hashingClient(c), () => hashPassword(password));
      await db.transaction().execute(async (trx) => {
        const now = deps.now();
        const spent = await spendCode(trx, holder, code, field, now);
        await trx
          .updateTable('users')
          .set((eb) => ({
            password_hash: passwordHash,
            password_changed_at: now,
            // The link reached this address, which proves it.
            email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)),
            updated_at: now,
            version: eb('version', '+', 1),
          }))
          .where('id', '=', spent.id)
          .execute();
        // Whoever knew the old password is signed out everywhere.
        const ended = await revokeUserSessions(trx, spent.id, 'password_reset', now);
        await auditChangeBy(trx, actorOf(spent, c, deps.config), deps, {
          action: 'UPDATE_PASSWORD',
          resourceType: 'USER',
          resourceId: spent.id,
          accountId: spent.primary_account_id,
          details: { sessions_ended: ended },
        });
        await enqueueMail(trx, {
          kind: 'password_changed',
          userId: spent.id,
          to: spent.email,
          requestedBy: null,
          now,
        });
      });
      deps.mail.nudge();
      return c.body(null, 204);
    },
  );
}
