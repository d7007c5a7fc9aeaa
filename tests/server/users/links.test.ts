import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import type { TokenPurpose } from '../../../server/mail/kinds.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { blockSignInAddress, signIn } from '../identity/requests.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from './helpers.ts';

/**
 * The public routes a mailed link opens (decision 035 §1, decision 018 §3.5 escalation 12): the code is the
 * credential, and every bad code answers the same 400 `linkExpired`.
 */

let harness: TestApp;
let accountId: string;
const NEW_PASSWORD = 'Brand-New-Horse-77!';

beforeAll(async () => {
  harness = await createTestApp();
  accountId = await insertAccount(harness);
});
afterAll(() => harness.close());

/** A live code of `purpose` for the user, as the dispatcher makes one when it sends the mail. */
async function codeFor(
  userId: string,
  purpose: TokenPurpose,
  options: { email?: string; expiresInMinutes?: number } = {},
): Promise<string> {
  const code = newOpaqueToken();
  const user = await harness.deps.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const now = harness.deps.now();
  await harness.deps.db
    .insertInto('user_tokens')
    .values({
      token_hash: hashOpaqueToken(code),
      user_id: userId,
      purpose,
      email: options.email ?? user.email,
      created_at: now,
      expires_at: new Date(now.getTime() + (options.expiresInMinutes ?? 60) * 60_000),
    })
    .execute();
  return code;
}

const verify = (userId: string, body: Record<string, unknown>) =>
  call(harness, 'POST', apiPaths.users.verify(userId), { body });
const reset = (userId: string, code: string, password = NEW_PASSWORD) =>
  call(harness, 'POST', apiPaths.users.resetPassword(userId), {
    body: { reset_code: code, password, repeatedPassword: password },
  });

async function expectLinkExpired(response: Response, field: string) {
  expect(response.status).toBe(400);
  expect(await errorOf(response)).toMatchObject({ field, code: 'linkExpired' });
}

async function userNameOf(id: string) {
  return (
    await harness.deps.db
      .selectFrom('users')
      .select('user_name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).user_name;
}

describe('POST user/{id}/verify (invitation)', () => {
  it('sets the first password once, verifies the address, records both events, and the user signs in', async () => {
    const id = await insertTestUser(harness, { accountId, pending: true });
    const userName = await userNameOf(id);
    const code = await codeFor(id, 'invitation');
    const response = await verify(id, {
      verification_code: code,
      login: userName.toUpperCase(),
      password: NEW_PASSWORD,
    });
    expect(response.status).toBe(204);
    await signIn(harness, { id, userName, password: NEW_PASSWORD, accountId });
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'details'])
      .where('resource_id', '=', id)
      .where('action', '!=', 'LOGIN')
      .orderBy('occurred_at')
      .execute();
    expect(events.map((event) => [event.action, event.actor_id])).toEqual([
      ['UPDATE', id],
      ['UPDATE_PASSWORD', id],
    ]);
    const mail = await harness.deps.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('user_id', '=', id)
      .execute();
    expect(mail.map((row) => row.kind)).toEqual(['password_changed']);
    // Twice: the code is spent.
    await expectLinkExpired(
      await verify(id, { verification_code: code, login: userName, password: NEW_PASSWORD }),
      'verification_code',
    );
  });

  it('applies the password rules to the new password, and 400 invalidLogin for another user name', async () => {
    const id = await insertTestUser(harness, { accountId, pending: true });
    const code = await codeFor(id, 'invitation');
    const weak = await verify(id, {
      verification_code: code,
      login: await userNameOf(id),
      password: 'short',
    });
    expect(weak.status).toBe(400);
    expect((await errorOf(weak)).field).toBe('password');
    const wrongLogin = await verify(id, {
      verification_code: code,
      login: 'someone-else',
      password: NEW_PASSWORD,
    });
    expect(wrongLogin.status).toBe(400);
    expect(await errorOf(wrongLogin)).toMatchObject({ field: 'login', code: 'invalidLogin' });
  });

  it('answers linkExpired for an unknown code, another user’s path, an expired code, a changed address and a disabled user', async () => {
    const id = await insertTestUser(harness, { accountId, pending: true });
    const other = await insertTestUser(harness, { accountId, pending: true });
    const login = await userNameOf(id);
    const body = (code: string) => ({ verification_code: code, login, password: NEW_PASSWORD });
    await expectLinkExpired(await verify(id, body('not-a-code')), 'verification_code');
    await expectLinkExpired(await verify(other, body(await codeFor(id, 'invitation'))), 'verification_code');
    await expectLinkExpired(
      await verify(id, body(await codeFor(id, 'invitation', { expiresInMinutes: -1 }))),
      'verification_code',
    );
    await expectLinkExpired(
      await verify(id, body(await codeFor(id, 'invitation', { email: 'old@example.com' }))),
      'verification_code',
    );
    // A reset code does not verify.
    await expectLinkExpired(await verify(id, body(await codeFor(id, 'reset_password'))), 'verification_code');
    const code = await codeFor(id, 'invitation');
    await harness.deps.db.updateTable('users').set({ active: false }).where('id', '=', id).execute();
    await expectLinkExpired(await verify(id, body(code)), 'verification_code');
  });
});

describe('POST user/{id}/verify/holder', () => {
  const holderOf = (userId: string, code: string) =>
    call(harness, 'POST', apiPaths.users.verifyHolder(userId), { body: { verification_code: code } });

  it('names the user of a live invitation or verification link, spending nothing', async () => {
    const id = await insertTestUser(harness, { accountId, pending: true });
    const userName = await userNameOf(id);
    for (const purpose of ['invitation', 'verify_email'] as const) {
      const code = await codeFor(id, purpose);
      const answer = await holderOf(id, code);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('Cache-Control')).toBe('no-store');
      expect(await answer.json()).toEqual({ user_name: userName });
      expect((await holderOf(id, code)).status).toBe(200);
    }
    const invitation = await codeFor(id, 'invitation');
    expect(
      (await verify(id, { verification_code: invitation, login: userName, password: NEW_PASSWORD })).status,
    ).toBe(204);
    await expectLinkExpired(await holderOf(id, invitation), 'verification_code');
  });

  it('answers linkExpired for an unknown code, another user’s path, and a reset code', async () => {
    const id = await insertTestUser(harness, { accountId, pending: true });
    const other = await insertTestUser(harness, { accountId, pending: true });
    await expectLinkExpired(await holderOf(id, newOpaqueToken()), 'verification_code');
    await expectLinkExpired(await holderOf(other, await codeFor(id, 'invitation')), 'verification_code');
    await expectLinkExpired(await holderOf(id, await codeFor(id, 'reset_password')), 'verification_code');
  });
});

describe('POST user/{id}/verify (address change)', () => {
  it("checks the current password: a wrong one is wrongPassword, keeps the code and counts against the link's own budget", async () => {
    const user = await harness.createUser({ accessScope: 'account', accountId });
    await harness.deps.db
      .updateTable('users')
      .set({ email_verified_at: null })
      .where('id', '=', user.id)
      .execute();
    const code = await codeFor(user.id, 'verify_email');
    const wrong = await verify(user.id, {
      verification_code: code,
      login: user.userName,
      password: 'Not-The-One-1!',
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ field: 'password', code: 'wrongPassword' });
    const counted = await harness.deps.db
      .selectFrom('sign_in_throttle')
      .select(['key', 'failures'])
      .where((eb) =>
        eb('key', 'like', 'link-password:%').or('key', 'like', `%${user.userName.toLowerCase()}%`),
      )
      .execute();
    expect(counted).toEqual([{ key: expect.stringMatching(/^link-password:[0-9a-f]{64}$/), failures: 1 }]);
    const right = await verify(user.id, {
      verification_code: code,
      login: user.userName,
      password: user.password,
    });
    expect(right.status).toBe(204);
    const stored = await harness.deps.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.email_verified_at).not.toBeNull();
  });

  it('confirms with the right password while sign-in from the same address is blocked by strangers', async () => {
    const user = await harness.createUser({ accessScope: 'account', accountId });
    const code = await codeFor(user.id, 'verify_email');
    await blockSignInAddress(harness);
    try {
      const right = await verify(user.id, {
        verification_code: code,
        login: user.userName,
        password: user.password,
      });
      expect(right.status).toBe(204);
    } finally {
      await harness.deps.db.deleteFrom('sign_in_throttle').where('key', '=', 'ip:unknown').execute();
    }
  });
});

describe('POST user/{id}/reset-password', () => {
  it('sets the password, ends every session, records UPDATE_PASSWORD with the count, and the code works once', async () => {
    const user = await signedInUser(harness, { accessScope: 'account', accountId });
    const code = await codeFor(user.id, 'reset_password');
    const response = await reset(user.id, code);
    expect(response.status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.profile, { token: user.token })).status).toBe(401);
    await signIn(harness, { ...user, password: NEW_PASSWORD });
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'details'])
      .where('resource_id', '=', user.id)
      .where('action', '=', 'UPDATE_PASSWORD')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor_id: user.id, details: { sessions_ended: 1 } });
    await expectLinkExpired(await reset(user.id, code), 'reset_code');
  });

  it('refuses a verification code, another user’s code and a superseded one alike', async () => {
    const user = await harness.createUser({ accessScope: 'account', accountId });
    const other = await harness.createUser({ accessScope: 'account', accountId });
    await expectLinkExpired(await reset(user.id, await codeFor(user.id, 'invitation')), 'reset_code');
    await expectLinkExpired(await reset(other.id, await codeFor(user.id, 'reset_password')), 'reset_code');
    const first = await codeFor(user.id, 'reset_password');
    await harness.deps.db
      .updateTable('user_tokens')
      .set({ revoked_at: harness.deps.now() })
      .where('token_hash', '=', hashOpaqueToken(first))
      .execute();
    await expectLinkExpired(await reset(user.id, first), 'reset_code');
  });

  it('answers 400 for a password and confirmation that differ, without touching the code', async () => {
    const user = await harness.createUser({ accessScope: 'account', accountId });
    const code = await codeFor(user.id, 'reset_password');
    const response = await call(harness, 'POST', apiPaths.users.resetPassword(user.id), {
      body: { reset_code: code, password: NEW_PASSWORD, repeatedPassword: `${NEW_PASSWORD}x` },
    });
    expect(response.status).toBe(400);
    expect((await reset(user.id, code)).status).toBe(204);
  });
});
