import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/connection.ts';
import { loadServerCatalogs, type ServerCatalogs } from '../../../server/i18n/catalog.ts';
import { MAIL_RETRY_MINUTES } from '../../../server/mail/dispatcher.ts';
import { enqueueMail } from '../../../server/mail/outbox.ts';
import { databaseUrl } from '../migrated-database.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import {
  type CapturedLog,
  captureLog,
  dispatcherFor,
  linkIn,
  type Mailbox,
  mailConfig,
  manualClock,
  startMailbox,
} from './helpers.ts';

/** Delivery from the outbox: only committed mail, retried when the SMTP server fails, sent once. */

let harness: TestApp;
let mailbox: Mailbox;
let catalogs: ServerCatalogs;
let user: TestUser;
let log: CapturedLog;
const clock = manualClock();

beforeAll(async () => {
  harness = await createTestApp({ now: clock.now });
  mailbox = await startMailbox();
  catalogs = await loadServerCatalogs();
  user = await harness.createUser({ userName: 'ada' });
});
afterAll(async () => {
  await mailbox.close();
  await harness.close();
});
beforeEach(async () => {
  log = captureLog();
  mailbox.messages.length = 0;
  mailbox.refuseRecipient = () => null;
  await harness.deps.db.deleteFrom('mail_outbox').execute();
});

function dispatcher() {
  return dispatcherFor(harness, { catalogs, config: mailConfig(harness, mailbox.url), now: clock.now, log });
}

function enqueue(to = 'ada@example.com'): Promise<string> {
  return harness.deps.db
    .transaction()
    .execute((trx) =>
      enqueueMail(trx, { kind: 'invitation', userId: user.id, to, requestedBy: null, now: clock.now() }),
    );
}

function outboxRow(id: string) {
  return harness.deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('the mail dispatcher', () => {
  it('never sends a message queued in a transaction that rolled back', async () => {
    await expect(
      harness.deps.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, {
          kind: 'invitation',
          userId: user.id,
          to: 'ada@example.com',
          requestedBy: null,
          now: clock.now(),
        });
        throw new Error('The change failed after queueing its mail.');
      }),
    ).rejects.toThrow('The change failed');
    expect(await dispatcher().drain()).toBe(0);
    expect(mailbox.messages).toHaveLength(0);
    expect(await harness.deps.db.selectFrom('mail_outbox').select('id').execute()).toEqual([]);
  });

  it('retries a transient SMTP failure after the back-off, with a new link', async () => {
    let refusals = 1;
    mailbox.refuseRecipient = () => (refusals-- > 0 ? 451 : null);
    const id = await enqueue();
    const mail = dispatcher();

    expect(await mail.drain()).toBe(1);
    expect(mailbox.messages).toHaveLength(0);
    const waiting = await outboxRow(id);
    expect(waiting).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, claimed_until: null });
    expect(waiting.last_error).toMatch(/^451 EENVELOPE/);
    expect(waiting.next_attempt_at.getTime() - clock.now().getTime()).toBe(MAIL_RETRY_MINUTES[0] * 60_000);
    // The link of the failed attempt was never delivered: it is revoked, not left usable.
    expect(
      await harness.deps.db
        .selectFrom('user_tokens')
        .select('revoked_at')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([{ revoked_at: expect.any(Date) }]);
    expect(log.lines).toEqual([
      expect.stringContaining(`Mail invitation ${id} attempt 1 failed (451 EENVELOPE)`),
    ]);
    // The log names the status, never the reply, which quotes the address.
    expect(log.lines.join('\n')).not.toContain('ada@example.com');

    expect(await mail.drain()).toBe(0);
    clock.advanceMinutes(MAIL_RETRY_MINUTES[0]);
    expect(await mail.drain()).toBe(1);
    expect(mailbox.messages).toHaveLength(1);
    expect((await outboxRow(id)).sent_at).toEqual(clock.now());
    const live = await harness.deps.db
      .selectFrom('user_tokens')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    expect(linkIn(mailbox.messages[0]?.text ?? '').pathname).toContain(`/account/verify/${user.id}/`);
  });

  it('gives a message up after the last retry', async () => {
    mailbox.refuseRecipient = () => 421;
    const id = await enqueue();
    const mail = dispatcher();
    for (const minutes of MAIL_RETRY_MINUTES) {
      expect(await mail.drain()).toBe(1);
      clock.advanceMinutes(minutes);
    }
    expect(await mail.drain()).toBe(1);
    const row = await outboxRow(id);
    expect(row.attempts).toBe(MAIL_RETRY_MINUTES.length + 1);
    expect(row.failed_at).toEqual(clock.now());
    expect(log.lines.at(-1)).toContain(`failed for good after ${MAIL_RETRY_MINUTES.length + 1} attempt(s)`);
    clock.advanceMinutes(24 * 60);
    expect(await mail.drain()).toBe(0);
  });

  it('gives a message up at once when the server refuses it for good', async () => {
    mailbox.refuseRecipient = () => 550;
    const id = await enqueue('nobody@example.com');
    expect(await dispatcher().drain()).toBe(1);
    const row = await outboxRow(id);
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    expect(row.failed_at).not.toBeNull();
    expect(row.last_error).toMatch(/^550 EENVELOPE: /);
    expect(row.last_error?.length).toBeLessThanOrEqual(240);
  });

  it('retries, not gives up, when the SMTP server cannot be reached', async () => {
    const unreachable = mailConfig(harness, 'smtp://127.0.0.1:1');
    const id = await enqueue();
    const mail = dispatcherFor(harness, { catalogs, config: unreachable, now: clock.now, log });
    expect(await mail.drain()).toBe(1);
    const row = await outboxRow(id);
    expect(row).toMatchObject({ failed_at: null, sent_at: null, attempts: 1 });
    expect(row.last_error).toMatch(/ECONNECTION|ESOCKET/);
  });

  it('sends each message once when two dispatchers work one database', async () => {
    // On PostgreSQL the second dispatcher gets a connection pool of its own, as another process would.
    const url = process.env.TEST_DATABASE_URL;
    const second = url
      ? await sql<{ database: string }>`select current_database() as database`
          .execute(harness.deps.db)
          .then(({ rows }) => openDatabase({ databaseUrl: databaseUrl(url, rows[0]?.database ?? '') }))
      : null;
    try {
      const ids = new Set<string>();
      for (let index = 0; index < 12; index += 1) ids.add(await enqueue(`ada+${index}@example.com`));
      const one = dispatcher();
      const two = dispatcherFor(harness, {
        catalogs,
        config: mailConfig(harness, mailbox.url),
        now: clock.now,
        log,
        ...(second === null ? {} : { db: second.db }),
      });
      const [first, other] = await Promise.all([one.drain(), two.drain()]);
      expect(first + other).toBe(12);
      expect(mailbox.messages).toHaveLength(12);
      const recipients = mailbox.messages.map((message) =>
        message.to && !Array.isArray(message.to) ? message.to.value[0]?.address : undefined,
      );
      expect(new Set(recipients).size).toBe(12);
      const rows = await harness.deps.db
        .selectFrom('mail_outbox')
        .select(['id', 'attempts', 'sent_at'])
        .execute();
      expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
      expect(rows.every((row) => row.attempts === 1 && row.sent_at !== null)).toBe(true);
    } finally {
      await second?.close();
    }
  });

  it('leaves a message another process holds under its lease alone until the lease ends', async () => {
    const id = await enqueue();
    await harness.deps.db
      .updateTable('mail_outbox')
      .set({ claimed_until: new Date(clock.now().getTime() + 60_000), attempts: 1 })
      .where('id', '=', id)
      .execute();
    const mail = dispatcher();
    expect(await mail.drain()).toBe(0);
    clock.advanceMinutes(1);
    expect(await mail.drain()).toBe(1);
    expect(mailbox.messages).toHaveLength(1);
    expect((await outboxRow(id)).attempts).toBe(2);
  });

  it('sends on a nudge once started, and sends nothing more once stopped', async () => {
    const mail = dispatcher();
    mail.start();
    await enqueue();
    mail.nudge();
    await mailbox.waitFor(1);
    await mail.stop();
    await enqueue();
    mail.nudge();
    expect(await mail.drain()).toBe(0);
    expect(mailbox.messages).toHaveLength(1);
  });
});
