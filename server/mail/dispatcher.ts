import { type Kysely, sql } from 'kysely';
import { bcp47For, consoleLocaleFor, DEFAULT_CONSOLE_LOCALE } from '../../contract/locales.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { ServerCatalogs } from '../i18n/catalog.ts';
import { hashOpaqueToken, newOpaqueToken } from '../identity/opaque-tokens.ts';
import { pollingLoop } from '../polling-loop.ts';
import { isMailKind, MAIL_LINKS, type MailKind } from './kinds.ts';
import { type MailAction, type MailFacts, renderMail } from './messages.ts';
import { purgeFinishedMail } from './outbox.ts';
import { classifySendFailure, type MailLog, type MailTransport } from './transport.ts';

/**
 * Sends what the outbox holds (docs/decisions/037-mail.md §2). Every server
 * process runs one; they share the work through the database:
 *
 * 1. one statement claims one due row under a lease (`for update skip locked`), so two processes
 *    never hold the same row at once;
 * 2. a link's one-time code is made now and only its hash committed, revoking the user's older
 *    unused codes of that purpose, so the database never holds a usable link and the newest wins;
 * 3. the message is rendered and sent with no transaction open (PGlite's one connection stays free
 *    for requests while the SMTP server answers);
 * 4. success records `sent_at`; failure revokes the new code, then retries with back-off or, for a
 *    permanent refusal or after the last retry, records `failed_at`.
 *
 * Delivery is at least once: a process that dies between the SMTP answer and `sent_at` leaves the
 * row to be claimed again when its lease ends, and that second message's link supersedes the first.
 */

/** How long a claim keeps other processes off a row; the SMTP timeouts end well before it. */
export const MAIL_LEASE_MS = 2 * 60_000;
/** Waits before each retry; after the last, the message is given up (`failed_at`). */
export const MAIL_RETRY_MINUTES = [1, 5, 30, 120, 360] as const;
/** How often an idle dispatcher looks for due rows (other processes' mail, retries falling due). */
export const MAIL_POLL_MS = 5_000;
const PURGE_INTERVAL_MS = 3_600_000;

export interface MailDispatcherDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  transport: MailTransport;
  catalogs: ServerCatalogs;
  now: () => Date;
  log?: MailLog;
}

export interface MailDispatcher {
  /** Polls every five seconds until `stop`. */
  start: () => void;
  /** Delivers at once what is due, without waiting for the next poll; called after a commit. */
  nudge: () => void;
  /** Claims and delivers one due message; answers false when none was due. Tests drive this. */
  deliverNext: () => Promise<boolean>;
  /** Delivers due messages until none is left. */
  drain: () => Promise<number>;
  /** Stops polling and waits for the message being sent, so shutdown never cuts one in half. */
  stop: () => Promise<void>;
}

interface ClaimedRow {
  id: string;
  kind: string;
  user_id: string | null;
  enrollment_id: string | null;
  link: string | null;
  to_address: string;
  requested_by: string | null;
  attempts: number;
}

function displayName(user: { first_name: string; last_name: string; user_name: string }): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.user_name;
}

export function createMailDispatcher(deps: MailDispatcherDeps): MailDispatcher {
  const { db, config, transport, catalogs, now } = deps;
  const log = deps.log ?? console;

  async function claim(): Promise<ClaimedRow | undefined> {
    const at = now();
    const leaseEnd = new Date(at.getTime() + MAIL_LEASE_MS);
    // One statement: the row lock taken by the subquery and the lease written by the update commit
    // together, and a row another process holds (locked or leased) is passed over, not waited for.
    const { rows } = await sql<ClaimedRow>`
      update mail_outbox
         set claimed_until = ${leaseEnd}, attempts = attempts + 1
       where id = (
               select id from mail_outbox
                where sent_at is null and failed_at is null
                  and next_attempt_at <= ${at}
                  and (claimed_until is null or claimed_until <= ${at})
                order by next_attempt_at
                limit 1
                  for update skip locked)
         and sent_at is null and failed_at is null
      returning id, kind, user_id, enrollment_id, link, to_address, requested_by, attempts`.execute(db);
    return rows[0];
  }

  /** Makes the link's one-time code and commits its hash; answers the link and the hash. */
  async function issueLink(
    row: ClaimedRow,
    kind: MailKind,
  ): Promise<{ action: MailAction | null; tokenHash: string | null }> {
    const link = MAIL_LINKS[kind];
    if (link === null) return { action: null, tokenHash: null };
    if (link.type === 'carried') {
      if (row.link === null) throw new Error(`Mail ${kind} ${row.id} carries no link.`);
      return { action: { url: row.link, lifetimeMinutes: link.lifetimeMinutes }, tokenHash: null };
    }
    if (row.user_id === null) throw new Error(`Mail ${kind} ${row.id} names no user.`);
    const userId = row.user_id;
    if (link.type === 'plain') {
      return {
        action: {
          url: new URL(typeof link.path === 'string' ? link.path : link.path(userId), config.publicUrl).href,
          lifetimeMinutes: null,
        },
        tokenHash: null,
      };
    }
    const code = newOpaqueToken();
    const tokenHash = hashOpaqueToken(code);
    const at = now();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('user_tokens')
        .set({ revoked_at: at })
        .where('user_id', '=', userId)
        .where('purpose', '=', link.purpose)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .insertInto('user_tokens')
        .values({
          token_hash: tokenHash,
          user_id: userId,
          purpose: link.purpose,
          email: row.to_address,
          created_at: at,
          expires_at: new Date(at.getTime() + link.lifetimeMinutes * 60_000),
        })
        .execute();
    });
    const url = new URL(link.path(userId, code), config.publicUrl).href;
    return { action: { url, lifetimeMinutes: link.lifetimeMinutes }, tokenHash };
  }

  async function requesterName(row: ClaimedRow): Promise<string | null> {
    if (row.requested_by === null || row.requested_by === row.user_id) return null;
    const requester = await db
      .selectFrom('users')
      .select(['first_name', 'last_name', 'user_name'])
      .where('id', '=', row.requested_by)
      .executeTakeFirst();
    return requester === undefined ? null : displayName(requester);
  }

  /** An enrollment's mail speaks to its seat: the person (in their language) or the device's technician. */
  async function readEnrollmentFacts(
    row: ClaimedRow,
    enrollmentId: string,
  ): Promise<{ facts: MailFacts; locale: string | null } | undefined> {
    const seat = await db
      .selectFrom('enrollments')
      .innerJoin('seats', 'seats.id', 'enrollments.seat_id')
      .innerJoin('accounts', 'accounts.id', 'enrollments.account_id')
      .leftJoin('users', 'users.id', 'seats.user_id')
      .select(['seats.name', 'accounts.name as account', 'users.locale'])
      .where('enrollments.id', '=', enrollmentId)
      .executeTakeFirst();
    if (seat === undefined) return undefined;
    return {
      facts: { name: seat.name, userName: seat.name, account: seat.account, actor: await requesterName(row) },
      locale: seat.locale,
    };
  }

  async function readFacts(
    row: ClaimedRow,
  ): Promise<{ facts: MailFacts; locale: string | null } | undefined> {
    if (row.enrollment_id !== null) return readEnrollmentFacts(row, row.enrollment_id);
    if (row.user_id === null) return undefined;
    const user = await db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
      .select([
        'users.first_name',
        'users.last_name',
        'users.user_name',
        'users.locale',
        'accounts.name as account',
      ])
      .where('users.id', '=', row.user_id)
      .executeTakeFirst();
    if (user === undefined) return undefined;
    return {
      facts: {
        name: displayName(user),
        userName: user.user_name,
        account: user.account,
        actor: await requesterName(row),
      },
      locale: user.locale,
    };
  }

  async function finish(
    row: ClaimedRow,
    values: { sent_at?: Date; failed_at?: Date; next_attempt_at?: Date; last_error?: string },
  ) {
    const finished = values.sent_at !== undefined || values.failed_at !== undefined;
    await db
      .updateTable('mail_outbox')
      // A carried link goes once the message has left or was given up (decision 021 §2).
      .set({ ...values, claimed_until: null, ...(finished ? { link: null } : {}) })
      .where('id', '=', row.id)
      .execute();
  }

  async function deliver(row: ClaimedRow): Promise<void> {
    if (!isMailKind(row.kind)) {
      // The check constraint admits only known kinds; a newer build's kind waits for that build.
      await finish(row, {
        next_attempt_at: new Date(now().getTime() + MAIL_LEASE_MS),
        last_error: 'unknown kind',
      });
      return;
    }
    const kind = row.kind;
    const read = await readFacts(row);
    if (read === undefined) {
      // The user went between enqueue and claim (the cascade usually takes the row with it).
      await finish(row, { failed_at: now(), last_error: 'user not found' });
      return;
    }
    const { action, tokenHash } = await issueLink(row, kind);
    const locale = consoleLocaleFor(read.locale);
    const i18n = catalogs.get(locale) ?? catalogs.get(DEFAULT_CONSOLE_LOCALE);
    if (i18n === undefined) throw new Error('The server catalogs are not loaded.');
    try {
      const rendered = renderMail(i18n, bcp47For(locale), kind, read.facts, action);
      await transport.send(
        { id: row.id, kind, to: row.to_address, ...rendered, link: action?.url ?? null },
        now(),
      );
    } catch (error) {
      if (tokenHash !== null) {
        await db
          .updateTable('user_tokens')
          .set({ revoked_at: now() })
          .where('token_hash', '=', tokenHash)
          .execute();
      }
      const failure = classifySendFailure(error);
      const retry = failure.permanent ? undefined : MAIL_RETRY_MINUTES[row.attempts - 1];
      if (retry === undefined) {
        await finish(row, { failed_at: now(), last_error: failure.detail });
        log.error(
          `Mail ${kind} ${row.id} failed for good after ${row.attempts} attempt(s): ${failure.summary}.`,
        );
      } else {
        await finish(row, {
          next_attempt_at: new Date(now().getTime() + retry * 60_000),
          last_error: failure.detail,
        });
        log.warn(
          `Mail ${kind} ${row.id} attempt ${row.attempts} failed (${failure.summary}); retrying in ${retry} min.`,
        );
      }
      return;
    }
    await finish(row, { sent_at: now() });
  }

  async function deliverNext(): Promise<boolean> {
    const row = await claim();
    if (row === undefined) return false;
    await deliver(row);
    return true;
  }

  let lastPurge = 0;
  const loop = pollingLoop({
    intervalMs: MAIL_POLL_MS,
    pass: drain,
    onError: (error) => log.error('The mail dispatcher failed; it tries again at the next poll:', error),
  });

  async function drain(): Promise<number> {
    let delivered = 0;
    while (!loop.stopped && (await deliverNext())) delivered += 1;
    if (!loop.stopped && now().getTime() - lastPurge >= PURGE_INTERVAL_MS) {
      lastPurge = now().getTime();
      await purgeFinishedMail(db, now());
    }
    return delivered;
  }

  return {
    start: loop.start,
    nudge: loop.nudge,
    deliverNext,
    drain,
    stop: async () => {
      await loop.stop();
      transport.close();
    },
  };
}
