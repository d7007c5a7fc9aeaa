import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import type { EnrollmentMailKind, MailKind } from './kinds.ts';

export interface MailRequest {
  kind: MailKind;
  /** The user the message is about; its name and language are read when the message is sent. */
  userId: string;
  /**
   * The address to send to, given by the caller because it is not always the user's current one:
   * `email_changed` goes to the old address, `verify_email` to the new one.
   */
  to: string;
  /** The signed-in user who asked for the mail; null for the user's own change or the platform. */
  requestedBy: string | null;
  now: Date;
}

/**
 * Puts a message in the outbox inside the caller's transaction, so the message leaves if and only if
 * the change commits (docs/decisions/037-mail.md §2). Nothing is sent here: the
 * dispatcher sends it after the commit. Answers the outbox row's id. Called by the user flows of
 * slice 2 (creation, e-mail change, resend, reset, password sign-in, two-factor reset).
 */
export async function enqueueMail(trx: Kysely<Database>, request: MailRequest): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      kind: request.kind,
      user_id: request.userId,
      to_address: request.to,
      requested_by: request.requestedBy,
      created_at: request.now,
      next_attempt_at: request.now,
    })
    .execute();
  return id;
}

/**
 * Puts an enrollment's mail in the outbox, in the transaction that made its code: to the person's
 * address or the device's technician, with the link it carries until it leaves (decision 021 §2).
 * Messages of the enrollment still waiting are dropped first: their link's code no longer works.
 */
export async function enqueueEnrollmentMail(
  trx: Kysely<Database>,
  request: {
    kind: EnrollmentMailKind;
    enrollmentId: string;
    userId: string | null;
    to: string;
    link: string;
    requestedBy: string;
    now: Date;
  },
): Promise<string> {
  await dropWaitingEnrollmentMail(trx, request.enrollmentId);
  const id = randomUUID();
  await trx
    .insertInto('mail_outbox')
    .values({
      id,
      kind: request.kind,
      user_id: request.userId,
      enrollment_id: request.enrollmentId,
      link: request.link,
      to_address: request.to,
      requested_by: request.requestedBy,
      created_at: request.now,
      next_attempt_at: request.now,
    })
    .execute();
  return id;
}

/** Drops an enrollment's messages not sent yet (and their links): its code changed or it ended. */
export async function dropWaitingEnrollmentMail(trx: Kysely<Database>, enrollmentId: string): Promise<void> {
  await trx
    .deleteFrom('mail_outbox')
    .where('enrollment_id', '=', enrollmentId)
    .where('sent_at', 'is', null)
    .where('failed_at', 'is', null)
    .execute();
}

/** How long sent and failed messages stay in the outbox, as the record of who asked for what. */
export const MAIL_RETENTION_DAYS = 90;

/** Deletes sent and failed messages past their retention; answers how many. */
export async function purgeFinishedMail(db: Kysely<Database>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - MAIL_RETENTION_DAYS * 86_400_000);
  const result = await db
    .deleteFrom('mail_outbox')
    .where('created_at', '<', cutoff)
    .where((eb) => eb.or([eb('sent_at', 'is not', null), eb('failed_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How long after a mail of one kind to one user the same kind is refused (decision 037 §2). */
export const RESEND_INTERVAL_SECONDS = 60;

/**
 * 429 with `Retry-After` when a mail of `kind` was queued for the user less than a minute ago, so a
 * button pressed twice (or a script) does not flood a mailbox.
 */
export async function assertNotJustSent(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  userId: string,
  kind: MailKind,
  now: Date,
): Promise<void> {
  const last = await trx
    .selectFrom('mail_outbox')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('created_at', '>', new Date(now.getTime() - RESEND_INTERVAL_SECONDS * 1000))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (last === undefined) return;
  const wait = Math.max(
    1,
    Math.ceil((last.created_at.getTime() + RESEND_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000),
  );
  c.header('Retry-After', String(wait));
  throw new ApiError(429, 'This mail was sent less than a minute ago. Try again later.');
}
