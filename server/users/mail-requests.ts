import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { userIdParamsSchema } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, updateDetails } from '../audit/change.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { findReachableUser, USER_NOT_FOUND } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateParams } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import type { MailKind } from '../mail/kinds.ts';
import { assertNotJustSent, enqueueMail } from '../mail/outbox.ts';
import { assertMayChangeUser } from '../role-assignments/index.ts';

/** The stored facts the mail routes decide on. */
interface MailTarget {
  id: string;
  email: string;
  primary_account_id: string;
  access_scope: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  saml_username: string | null;
  oidc_username: string | null;
  mfa_enrolled_at: Date | null;
  mfa_locked_until: Date | null;
}

/**
 * The user `id` locked for the change, once the caller may send it mail: 404 out of reach, 403
 * without the permission of changing that user, then G4 (`userExceedsYours`: a reset link to a
 * stronger user's mailbox is a takeover) and, for `own: 'refused'`, G3. Oneself needs no permission
 * where `own: 'free'` (resending one's own verification link).
 */
async function mailTarget(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  id: string,
  own: 'free' | 'refused' | 'managed',
): Promise<MailTarget> {
  const principal = c.var.principal;
  const reachable = await findReachableUser(trx, principal, id, true);
  if (!reachable) throw new ApiError(404, USER_NOT_FOUND);
  const self = reachable.id === principal.userId;
  if (!(self && own === 'free')) {
    assertUserAccess(principal, accessScopeOf(reachable.access_scope), 'manage');
    await assertMayChangeUser(trx, principal, [reachable.id], {
      self: own === 'refused' ? 'refused' : 'allowed',
    });
  }
  return trx
    .selectFrom('users')
    .select([
      'id',
      'email',
      'primary_account_id',
      'access_scope',
      'password_hash',
      'email_verified_at',
      'saml_username',
      'oidc_username',
      'mfa_enrolled_at',
      'mfa_locked_until',
    ])
    .where('id', '=', reachable.id)
    .executeTakeFirstOrThrow();
}

/** The description of a route that queues one mail: they answer alike. */
function mailRequest(summary: string) {
  return describeOperation({
    tag: 'Users',
    summary,
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 403, 404, 409, 429],
  });
}

/**
 * The mail an administrator asks for (decision 035 §1, decision 037 §3): resending the invitation or
 * verification link, the password reset, the standard-login invitation, the single sign-on mail,
 * and the two-factor reset. Each queues its message in the transaction of its checks (and of its
 * change, for the two-factor reset) and nudges the dispatcher after the commit.
 */
export function userMailRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { db } = deps;
  const authenticated = requireAuth(deps);
  const userParams = validateParams(userIdParamsSchema);

  /**
   * Records that `kind` is sent to the target: for the invitation, the verification, the
   * standard-login and the single sign-on mail, the message is the whole change. The reset has its
   * own action (SEND_RESET_PASSWORD); the two-factor reset records the change that sends its mail.
   */
  const recordMail = async (
    trx: Kysely<Database>,
    c: Context<AppEnv>,
    target: MailTarget,
    kind: MailKind,
  ): Promise<MailKind> => {
    await auditChange(trx, c, deps, {
      action: 'SEND_USER_MAIL',
      resourceType: 'USER',
      resourceId: target.id,
      accountId: target.primary_account_id,
      details: { mail: kind },
    });
    return kind;
  };

  /** Queues `kind` for the user of the path once `decide` accepts the target; answers 204. */
  const sendMail = async (
    c: Context<AppEnv>,
    id: string,
    own: 'free' | 'refused' | 'managed',
    decide: (target: MailTarget, trx: Kysely<Database>, now: Date) => Promise<MailKind | null>,
  ) => {
    const now = deps.now();
    await db.transaction().execute(async (trx) => {
      const target = await mailTarget(trx, c, id, own);
      const kind = await decide(target, trx, now);
      if (kind === null) return;
      await assertNotJustSent(trx, c, target.id, kind, now);
      await enqueueMail(trx, {
        kind,
        userId: target.id,
        to: target.email,
        requestedBy: c.var.principal.userId,
        now,
      });
    });
    deps.mail.nudge();
    return c.body(null, 204);
  };

  // The invitation while no password was ever set, else the verification of the current address.
  app.put(
    '/user/:id/verification',
    mailRequest(
      'Sends the invitation again while the user has no password, else the verification link of the current address; oneself needs no permission. 429 with Retry-After within a minute of the last.',
    ),
    authenticated,
    userParams,
    (c) =>
      sendMail(c, c.req.valid('param').id, 'free', async (target, trx) => {
        if (target.password_hash === null) return recordMail(trx, c, target, 'invitation');
        if (target.email_verified_at !== null) {
          throw new ApiError(409, 'The e-mail address is already verified.');
        }
        return recordMail(trx, c, target, 'verify_email');
      }),
  );

  app.put(
    '/user/:id/email',
    mailRequest(
      'Sends a password-reset link to a user the caller may change, at a verified address only (409 emailNotVerified). 429 with Retry-After within a minute of the last.',
    ),
    authenticated,
    userParams,
    (c) =>
      sendMail(c, c.req.valid('param').id, 'managed', async (target, trx) => {
        if (target.email_verified_at === null) {
          throw new ApiError(409, 'A password reset is sent to a verified address only.', {
            code: 'emailNotVerified',
          });
        }
        await auditChange(trx, c, deps, {
          action: 'SEND_RESET_PASSWORD',
          resourceType: 'USER',
          resourceId: target.id,
          accountId: target.primary_account_id,
          details: {},
        });
        return 'reset_password';
      }),
  );

  app.put(
    '/user/:id/standard-login',
    mailRequest(
      'Invites a user without a password to set one (409 hasPassword otherwise). 429 with Retry-After within a minute of the last.',
    ),
    authenticated,
    userParams,
    (c) =>
      sendMail(c, c.req.valid('param').id, 'managed', async (target, trx) => {
        if (target.password_hash !== null) {
          throw new ApiError(409, 'The user already signs in with a password.', { code: 'hasPassword' });
        }
        return recordMail(trx, c, target, 'standard_login');
      }),
  );

  app.put(
    '/user/:id/resendSsoEmail',
    mailRequest(
      'Sends the single sign-on mail again (409 noSingleSignOn without a SAML or OIDC user name). 429 with Retry-After within a minute of the last.',
    ),
    authenticated,
    userParams,
    (c) =>
      sendMail(c, c.req.valid('param').id, 'managed', async (target, trx) => {
        if (target.saml_username === null && target.oidc_username === null) {
          throw new ApiError(409, 'The user has no single sign-on user name.', { code: 'noSingleSignOn' });
        }
        return recordMail(trx, c, target, 'sso_sign_in');
      }),
  );

  // A locked user is unlocked (and told so); otherwise the enrollment is cleared, so the user sets
  // two-factor up again at the next sign-in. Nobody resets their own (G3).
  app.delete(
    '/user/:id/mfa',
    describeOperation({
      tag: 'Users',
      summary:
        'Unlocks a locked user (unlock mail), else clears the two-factor enrollment (set-up mail); never oneself or a stronger user. 409 noTwoFactor when the user has none to reset.',
      success: { status: 204, description: 'Two-factor reset' },
      failures: [400, 403, 404, 409, 429],
    }),
    authenticated,
    userParams,
    (c) =>
      sendMail(c, c.req.valid('param').id, 'refused', async (target, trx, now) => {
        const locked = target.mfa_locked_until !== null && target.mfa_locked_until > now;
        if (!locked && target.mfa_enrolled_at === null) {
          throw new ApiError(409, 'The user has no two-factor authentication to reset.', {
            code: 'noTwoFactor',
          });
        }
        const field = locked ? 'mfa_locked' : 'mfa_enrolled';
        await trx
          .updateTable('users')
          .set((eb) => ({
            ...(locked ? { mfa_locked_until: null } : { mfa_enrolled_at: null, mfa_locked_until: null }),
            updated_at: now,
            version: eb('version', '+', 1),
          }))
          .where('id', '=', target.id)
          .execute();
        await auditChange(trx, c, deps, {
          action: 'UPDATE',
          resourceType: 'USER',
          resourceId: target.id,
          accountId: target.primary_account_id,
          details: updateDetails({ [field]: true }, { [field]: false }, [field]),
        });
        return locked ? 'unlock' : 'mfa_reset';
      }),
  );
}
