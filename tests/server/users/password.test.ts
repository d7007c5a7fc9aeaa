import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { createToken } from '../api-tokens/helpers.ts';
import { errorOf } from '../errors.ts';
import { blockSignInAddress, sendJson, signIn } from '../identity/requests.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';

/** PUT user/{id}/password (decision 035 §1, decision 039 §7): one's own password, in a session, other sessions end. */

const NEW_PASSWORD = 'Another-Horse-Battery-77';

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

function change(token: string, userId: string, body: Record<string, unknown>) {
  return call(harness, 'PUT', apiPaths.users.password(userId), { token, body });
}

function changeOf(user: TestUser, password = NEW_PASSWORD) {
  return { current_password: user.password, password, repeatedPassword: password };
}

async function sessionLive(token: string): Promise<boolean> {
  return (await call(harness, 'GET', apiPaths.profile, { token })).status === 200;
}

describe('PUT user/{id}/password', () => {
  it('changes the password, ends every other session of the user, keeps this one, mails a notice and records it', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const other = await harness.createUser({ accessScope: 'account' });
    const here = await signIn(harness, user);
    const elsewhere = await signIn(harness, user);
    const third = await signIn(harness, user);
    const otherUsers = await signIn(harness, other);

    const response = await change(here.accessToken, user.id, changeOf(user));
    expect(response.status).toBe(204);

    expect(await sessionLive(here.accessToken)).toBe(true);
    expect(await sessionLive(elsewhere.accessToken)).toBe(false);
    expect(await sessionLive(third.accessToken)).toBe(false);
    expect(await sessionLive(otherUsers.accessToken)).toBe(true);
    // The ended sessions cannot be refreshed either.
    const refresh = await sendJson(
      harness,
      'POST',
      apiPaths.identity.refresh,
      {},
      { cookie: elsewhere.cookie },
    );
    expect(refresh.status).toBe(401);

    // The new password signs in, the old one no longer does.
    await expect(signIn(harness, { ...user, password: NEW_PASSWORD })).resolves.toBeDefined();
    await expect(signIn(harness, user)).rejects.toThrow('401');

    const row = await harness.deps.db
      .selectFrom('users')
      .select(['password_changed_at'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_changed_at).not.toBeNull();
    const revoked = await harness.deps.db
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is not', null)
      .execute();
    expect(revoked.map((session) => session.revoked_reason)).toEqual([
      'password_changed',
      'password_changed',
    ]);
    const mail = await harness.deps.db
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address', 'requested_by'])
      .where('user_id', '=', user.id)
      .execute();
    expect(mail).toEqual([{ kind: 'password_changed', to_address: expect.any(String), requested_by: null }]);
    const event = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'details', 'actor_id', 'status'])
      .where('resource_id', '=', user.id)
      .where('action', '=', 'UPDATE_PASSWORD')
      .executeTakeFirstOrThrow();
    expect(event).toEqual({
      action: 'UPDATE_PASSWORD',
      status: 'success',
      actor_id: user.id,
      details: { sessions_ended: 2 },
    });
  });

  it("refuses a wrong current password (400 wrongPassword), counting it against the user's own password-change budget", async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const { accessToken } = await signIn(harness, user);
    const wrong = { ...changeOf(user), current_password: 'Not-The-Password-1' };
    const response = await change(accessToken, user.id, wrong);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'current_password', code: 'wrongPassword' });
    const counted = await harness.deps.db
      .selectFrom('sign_in_throttle')
      .select(['key', 'failures'])
      .where((eb) => eb('key', 'like', `%${user.userName.toLowerCase()}%`).or('key', 'like', `%${user.id}%`))
      .execute();
    // Not a failed sign-in: sign-in's pair, address and user counters are not touched.
    expect(counted).toEqual([{ key: `password-change:user:${user.id}`, failures: 1 }]);
    // Guessing on: once the free failures are spent, the route answers 429 before any hashing.
    let status = 400;
    for (let attempt = 0; attempt < 6 && status === 400; attempt += 1) {
      status = (await change(accessToken, user.id, wrong)).status;
    }
    expect(status).toBe(429);
    const blocked = await change(accessToken, user.id, wrong);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Even the right password waits out the back-off.
    expect((await change(accessToken, user.id, changeOf(user))).status).toBe(429);
  });

  it('is not refused for failed sign-ins from the same address, and its wrong passwords never block sign-in', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const { accessToken } = await signIn(harness, user);
    const wrong = { ...changeOf(user), current_password: 'Not-The-Password-1' };
    let status = 400;
    for (let attempt = 0; attempt < 10 && status === 400; attempt += 1) {
      status = (await change(accessToken, user.id, wrong)).status;
    }
    expect(status).toBe(429);
    // The password change waits; the user's sign-in from the same address does not.
    await signIn(harness, user);

    const other = await harness.createUser({ accessScope: 'account' });
    const session = await signIn(harness, other);
    await blockSignInAddress(harness);
    try {
      expect((await change(session.accessToken, other.id, changeOf(other))).status).toBe(204);
    } finally {
      await harness.deps.db.deleteFrom('sign_in_throttle').where('key', '=', 'ip:unknown').execute();
    }
  });

  it('refuses a new password equal to the current one (samePassword) and one breaking the rules', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const { accessToken } = await signIn(harness, user);
    const same = await change(accessToken, user.id, changeOf(user, user.password));
    expect(same.status).toBe(400);
    expect(await errorOf(same)).toMatchObject({ field: 'password', code: 'samePassword' });
    const short = await change(accessToken, user.id, changeOf(user, 'short'));
    expect(short.status).toBe(400);
    expect((await errorOf(short)).field).toBe('password');
    const mismatch = await change(accessToken, user.id, {
      ...changeOf(user),
      repeatedPassword: 'Different-1234',
    });
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).field).toBe('repeatedPassword');
  });

  it('is for oneself only: 403 ownUserOnly for a managed user, 404 for one out of reach', async () => {
    const system = await harness.createUser({ accessScope: 'system' });
    const { accessToken } = await signIn(harness, system);
    const target = await harness.createUser({ accessScope: 'account' });
    const response = await change(accessToken, target.id, changeOf(system));
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('ownUserOnly');

    const accountUser = await harness.createUser({ accessScope: 'account' });
    const accountSession = await signIn(harness, accountUser);
    const foreign = await change(accountSession.accessToken, target.id, changeOf(accountUser));
    expect(foreign.status).toBe(404);
  });

  it('refuses an API token (403 sessionRequired), so a leaked token cannot take the account', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    const { accessToken } = await signIn(harness, user);
    const token = await createToken(harness, accessToken, user.id);
    const response = await change(token.value, user.id, changeOf(user));
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('sessionRequired');
  });

  it('asks for a token', async () => {
    const user = await harness.createUser({ accessScope: 'account' });
    expect((await change('', user.id, changeOf(user))).status).toBe(401);
  });
});
