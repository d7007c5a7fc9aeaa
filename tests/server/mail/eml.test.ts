import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerCatalogs } from '../../../server/i18n/catalog.ts';
import { enqueueMail } from '../../../server/mail/outbox.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  captureLog,
  dispatcherFor,
  linkIn,
  MAIL_FROM,
  mailConfig,
  manualClock,
  PUBLIC_URL,
} from './helpers.ts';

/** Without SMTP_URL, each message is an .eml file in the data directory, named in one log line. */

let harness: TestApp;
const clock = manualClock(new Date('2026-12-14T09:30:05.123Z'));

beforeAll(async () => {
  harness = await createTestApp({ now: clock.now });
});
afterAll(() => harness.close());

describe('mail without SMTP_URL', () => {
  it('is written as a private .eml file and logged with its file and link', async () => {
    const user = await harness.createUser({ userName: 'lin' });
    await harness.deps.db.updateTable('users').set({ locale: 'zh_TW' }).where('id', '=', user.id).execute();
    const id = await harness.deps.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        kind: 'verify_email',
        userId: user.id,
        to: 'lin@example.com',
        requestedBy: null,
        now: clock.now(),
      }),
    );
    const log = captureLog();
    const mail = dispatcherFor(harness, {
      catalogs: await loadServerCatalogs(),
      config: mailConfig(harness, null),
      now: clock.now,
      log,
    });
    expect(await mail.drain()).toBe(1);

    const directory = path.join(harness.dataDir, 'mail');
    const file = path.join(directory, `20261214T093005.123Z-verify_email-${id}.eml`);
    expect(await readdir(directory)).toEqual([path.basename(file)]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);

    const parsed = await simpleParser(await readFile(file));
    expect(parsed.subject).toBe('確認您的電子郵件地址');
    expect(parsed.from?.text).toBe(MAIL_FROM);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.html).toContain('<html lang="zh-TW">');
    const link = linkIn(parsed.text ?? '');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toMatch(new RegExp(`^/account/verify/${user.id}/[A-Za-z0-9_-]{43}$`));
    expect(parsed.html).toContain(`href="${link.href}"`);

    expect(log.lines).toEqual([
      `Mail verify_email ${id} written to ${file} (no SMTP_URL is set); its link: ${link.href}`,
    ]);
    expect(
      (await harness.deps.db.selectFrom('mail_outbox').select('sent_at').executeTakeFirstOrThrow()).sent_at,
    ).toEqual(clock.now());
  });
});
