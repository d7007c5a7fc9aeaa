import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadServerCatalogs, type ServerCatalogs } from '../../../server/i18n/catalog.ts';
import { hashOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import type { MailDispatcher } from '../../../server/mail/dispatcher.ts';
import type { MailKind } from '../../../server/mail/kinds.ts';
import { enqueueMail } from '../../../server/mail/outbox.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import {
  type CapturedLog,
  captureLog,
  dispatcherFor,
  linkIn,
  MAIL_FROM,
  type Mailbox,
  mailConfig,
  manualClock,
  PUBLIC_URL,
  startMailbox,
} from './helpers.ts';

/** Mail sent over SMTP to a real server, read back as the recipient's mail program would. */

let harness: TestApp;
let mailbox: Mailbox;
let catalogs: ServerCatalogs;
let admin: TestUser;
let anna: TestUser;
let log: CapturedLog;
let dispatcher: MailDispatcher;
const clock = manualClock();

beforeAll(async () => {
  harness = await createTestApp({ now: clock.now });
  mailbox = await startMailbox();
  catalogs = await loadServerCatalogs();
  admin = await harness.createUser({ userName: 'grace' });
  anna = await harness.createUser({ userName: 'anna', accessScope: 'account' });
  await harness.deps.db
    .updateTable('users')
    .set({ first_name: 'Grace', last_name: 'Hopper' })
    .where('id', '=', admin.id)
    .execute();
  // A name that would be markup if the HTML did not escape it.
  await harness.deps.db
    .updateTable('users')
    .set({ first_name: '<b>Anna</b>', last_name: '& "Co"', locale: 'de_DE' })
    .where('id', '=', anna.id)
    .execute();
});
afterAll(async () => {
  await dispatcher?.stop();
  await mailbox.close();
  await harness.close();
});
beforeEach(() => {
  log = captureLog();
  dispatcher = dispatcherFor(harness, {
    catalogs,
    config: mailConfig(harness, mailbox.url),
    now: clock.now,
    log,
  });
  mailbox.messages.length = 0;
});

async function enqueue(kind: MailKind, to = 'anna@example.com'): Promise<string> {
  return harness.deps.db
    .transaction()
    .execute((trx) =>
      enqueueMail(trx, { kind, userId: anna.id, to, requestedBy: admin.id, now: clock.now() }),
    );
}

describe('a message sent over SMTP', () => {
  it('arrives in the recipient language as text and HTML, with its link on PUBLIC_URL', async () => {
    const id = await enqueue('invitation');
    expect(await dispatcher.drain()).toBe(1);
    const [message] = mailbox.messages;
    if (message === undefined) throw new Error('No message arrived.');

    expect(message.subject).toBe('Schließen Sie die Einrichtung Ihres Kontos ab');
    expect(message.from?.value).toEqual([{ address: MAIL_FROM, name: '' }]);
    expect(message.to && !Array.isArray(message.to) ? message.to.value[0]?.address : null).toBe(
      'anna@example.com',
    );
    expect(message.headers.get('auto-submitted')).toBe('auto-generated');

    const text = message.text ?? '';
    expect(text).toContain('Hallo <b>Anna</b> & "Co",');
    expect(text).toContain('Grace Hopper hat für Sie ein Benutzerkonto');
    expect(text).toContain('in 3 Tagen ab');
    const link = linkIn(text);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toMatch(new RegExp(`^/account/verify/${anna.id}/[A-Za-z0-9_-]{43}$`));
    expect(link.searchParams.get('new')).toBe('1');

    const html = typeof message.html === 'string' ? message.html : '';
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Hallo &lt;b&gt;Anna&lt;/b&gt; &amp; &quot;Co&quot;,');
    expect(html).not.toContain('<b>Anna');
    expect(html).toContain(`href="${link.href}"`);
    expect(html).not.toMatch(/<img|src=|url\(/i);

    const code = link.pathname.split('/').at(-1) ?? '';
    const token = await harness.deps.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('token_hash', '=', hashOpaqueToken(code))
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({ user_id: anna.id, purpose: 'invitation', email: 'anna@example.com' });
    expect(token.expires_at.getTime() - clock.now().getTime()).toBe(72 * 3_600_000);

    const row = await harness.deps.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.claimed_until).toBeNull();
    // Neither the link nor its code is kept with the message, nor written to the log.
    expect(JSON.stringify(row)).not.toContain(code);
    expect(log.lines.join('\n')).not.toContain(code);
  });

  it('makes a new link for each send and revokes the older unused one of the same purpose', async () => {
    await enqueue('reset_password');
    await enqueue('reset_password');
    await dispatcher.drain();
    expect(mailbox.messages).toHaveLength(2);
    const [first, second] = mailbox.messages.map((message) => linkIn(message.text ?? ''));
    if (first === undefined || second === undefined) throw new Error('Two links expected.');
    expect(first.pathname).toMatch(new RegExp(`^/account/reset-password/${anna.id}/`));
    expect(mailbox.messages[0]?.text).toContain('in 1 Stunde ab');

    const stateOf = async (url: URL) =>
      harness.deps.db
        .selectFrom('user_tokens')
        .select(['revoked_at', 'expires_at'])
        .where('token_hash', '=', hashOpaqueToken(url.pathname.split('/').at(-1) ?? ''))
        .executeTakeFirstOrThrow();
    expect((await stateOf(first)).revoked_at).not.toBeNull();
    const newest = await stateOf(second);
    expect(newest.revoked_at).toBeNull();
    expect(newest.expires_at.getTime() - clock.now().getTime()).toBe(60 * 60_000);
  });

  it('sends a notice without a link to the address the caller names', async () => {
    await enqueue('email_changed', 'old-anna@example.com');
    await dispatcher.drain();
    const [message] = mailbox.messages;
    expect(message?.to && !Array.isArray(message.to) ? message.to.value[0]?.address : null).toBe(
      'old-anna@example.com',
    );
    expect(message?.subject).toBe('Ihre E-Mail-Adresse wurde geändert');
    expect(message?.text).toContain('Falls Sie das nicht waren, wenden Sie sich an Ihren Administrator.');
    expect(message?.text).not.toMatch(/https?:\/\//);
  });

  it('follows a change of the user language made after the message was queued', async () => {
    await enqueue('password_changed');
    await harness.deps.db.updateTable('users').set({ locale: 'ja_JP' }).where('id', '=', anna.id).execute();
    try {
      await dispatcher.drain();
    } finally {
      await harness.deps.db.updateTable('users').set({ locale: 'de_DE' }).where('id', '=', anna.id).execute();
    }
    expect(mailbox.messages[0]?.subject).toBe('パスワードが変更されました');
    expect(mailbox.messages[0]?.html).toContain('<html lang="ja">');
  });
});
