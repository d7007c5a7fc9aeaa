import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import type { User } from '../../../contract/schemas/users.ts';
import { loadServerCatalogs } from '../../../server/i18n/catalog.ts';
import type { MailDispatcher } from '../../../server/mail/dispatcher.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { signIn } from '../identity/requests.ts';
import {
  captureLog,
  dispatcherFor,
  linkIn,
  type Mailbox,
  mailConfig,
  PUBLIC_URL,
  startMailbox,
} from '../mail/helpers.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/**
 * The invitation and the password reset from the administrator's call to the person's sign-in,
 * through a real SMTP server: the mail the routes queue is the mail that arrives, and its link is the
 * one that works, once.
 */

let harness: TestApp;
let mailbox: Mailbox;
let dispatcher: MailDispatcher;
let admin: Caller;
let accountId: string;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  mailbox = await startMailbox();
  const log = captureLog();
  dispatcher = dispatcherFor(harness, {
    catalogs: await loadServerCatalogs(),
    config: mailConfig(harness, mailbox.url),
    now: harness.deps.now,
    log,
  });
  admin = await signedInUser(harness, { accessScope: 'system' });
  accountId = await insertAccount(harness, { name: 'Northwind' });
});
afterAll(async () => {
  await dispatcher.stop();
  await mailbox.close();
  await harness.close();
});

/** Delivers what the outbox holds and answers the newest message to `address`. */
async function lastMailTo(address: string) {
  await dispatcher.drain();
  const message = mailbox.messages
    .filter((mail) => mail.to && JSON.stringify(mail.to).includes(address))
    .at(-1);
  if (message === undefined) throw new Error(`No mail to ${address}.`);
  return message;
}

const PASSWORD = 'Invited-Horse-51!';

describe('mail of the user lifecycle over SMTP', () => {
  it('invites a created user, whose link sets the password once, and who then signs in', async () => {
    const roles = await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
    const created = await call(harness, 'POST', apiPaths.users.list, {
      token: admin.token,
      body: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        user_name: 'grace.hopper',
        phone: '',
        locale: 'de_DE',
        primary_account_id: accountId,
        role_ids: [roles.account_administrator],
      },
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as User;
    const mail = await lastMailTo('grace@example.com');
    // Both alternatives, in the recipient's language.
    expect(mail.html).toContain('lang="de"');
    expect(mail.text).toBeTruthy();
    const link = linkIn(mail.text ?? '');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toMatch(new RegExp(`^${CONSOLE_BASE_PATH}/verify/${user.id}/[A-Za-z0-9_-]+$`));
    expect(link.searchParams.get('new')).toBe('1');
    const code = link.pathname.split('/').at(-1) ?? '';

    const body = { verification_code: code, login: 'grace.hopper', password: PASSWORD };
    expect((await call(harness, 'POST', apiPaths.users.verify(user.id), { body })).status).toBe(204);
    expect((await call(harness, 'POST', apiPaths.users.verify(user.id), { body })).status).toBe(400);
    await signIn(harness, { id: user.id, userName: 'grace.hopper', password: PASSWORD, accountId });
    // The person is told the password was set.
    expect((await lastMailTo('grace@example.com')).subject).not.toBe(mail.subject);
  });

  it('sends a reset link that sets a new password and ends the sessions', async () => {
    const person = await signedInUser(harness, { accessScope: 'account', accountId });
    const address = `${person.userName}@example.com`;
    expect(
      (await call(harness, 'PUT', apiPaths.users.resetMail(person.id), { token: admin.token })).status,
    ).toBe(204);
    const link = linkIn((await lastMailTo(address)).text ?? '');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toMatch(new RegExp(`^${CONSOLE_BASE_PATH}/reset-password/${person.id}/`));
    const code = link.pathname.split('/').at(-1) ?? '';
    const password = 'Reset-Horse-62!';
    const reset = await call(harness, 'POST', apiPaths.users.resetPassword(person.id), {
      body: { reset_code: code, password, repeatedPassword: password },
    });
    expect(reset.status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.profile, { token: person.token })).status).toBe(401);
    await signIn(harness, { ...person, password });
  });
});
