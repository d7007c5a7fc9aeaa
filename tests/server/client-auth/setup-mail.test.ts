import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { loadServerCatalogs } from '../../../server/i18n/catalog.ts';
import { signIn } from '../identity/requests.ts';
import {
  captureLog,
  dispatcherFor,
  linkIn,
  type Mailbox,
  mailConfig,
  startMailbox,
} from '../mail/helpers.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';

/** O-21: the certificate sign-in setup mail is delivered with a link to the person's own certificates. */

let harness: TestApp;
let mailbox: Mailbox;

beforeAll(async () => {
  harness = await createTestApp();
  mailbox = await startMailbox();
});
afterAll(async () => {
  await mailbox.close();
  await harness.close();
});

it('delivers the setup mail to the person with a link to their client-certificate page, and no code', async () => {
  const admin = await harness.createUser({ accessScope: 'system' });
  const token = (await signIn(harness, admin)).accessToken;
  const personId = await insertTestUser(harness, { accountId: admin.accountId, email: 'grace@example.com' });
  const response = await call(harness, 'POST', apiPaths.users.sendSetupCacBasedLoginEmail(personId), {
    token,
  });
  expect(response.status).toBe(204);

  const mail = dispatcherFor(harness, {
    catalogs: await loadServerCatalogs(),
    config: mailConfig(harness, mailbox.url),
    now: () => new Date(),
    log: captureLog(),
  });
  expect(await mail.drain()).toBe(1);
  const [message] = mailbox.messages;
  expect(JSON.stringify(message?.to)).toContain('grace@example.com');
  expect(message?.subject).toBe('Set up certificate sign-in');
  expect(linkIn(message?.text ?? '').pathname).toBe(`/account/access/administrators/${personId}/client-auth`);
  // A plain link: no one-time code was made for it.
  expect(
    await harness.deps.db
      .selectFrom('user_tokens')
      .select('token_hash')
      .where('user_id', '=', personId)
      .execute(),
  ).toEqual([]);
});
